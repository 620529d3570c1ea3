/**
 * What the Reddit client's bookkeeping costs per request, as ratios against a bare HTTP request to the
 * simulator in the same run. Baseline: undici GET /r/{sub}/about with a bearer token. Measured: the same
 * call through RedditClient (shared budget slot under a row lock, token cache, request statistics).
 * A virtual clock shared with the simulator lets the budget's waits pass instantly, so only the overhead
 * is timed.
 *
 *   npm run bench:reddit            (PGlite, in memory)
 *   DATABASE_URL=postgres://... npm run bench:reddit
 */
import { request } from 'undici';
import { openDatabase } from '../../apps/server/src/db/client';
import { startRedditRig } from '../../apps/server/src/integrations/reddit/reddit-test-support';
import { summarize, type LatencySummary } from '../lib/latency';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 400);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 10);

async function run(name: string, call: () => Promise<void>): Promise<LatencySummary> {
  const latencies: number[] = [];
  let remaining = REQUESTS;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (remaining-- > 0) {
        const t0 = performance.now();
        await call();
        latencies.push(performance.now() - t0);
      }
    }),
  );
  return summarize(name, latencies, performance.now() - started);
}

async function main() {
  const database = await openDatabase({ url: process.env.DATABASE_URL });
  await database.migrate();
  const rig = await startRedditRig(database.db);
  const ua = 'web:threadreach-bench:0.1.0 (by /u/threadreach_bench)';

  const raw = rig.client({ clientSecret: 'bench-raw' });
  await raw.app.listNew(['startups'], { limit: 1 }); // registers the client id in the simulator
  const tokenRes = await request(new URL('/api/v1/access_token', rig.sim.url), {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${raw.clientId}:bench-raw`).toString('base64')}`,
      'user-agent': ua,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  const { access_token } = (await tokenRes.body.json()) as { access_token: string };
  const about = new URL('/r/startups/about?raw_json=1', rig.sim.url);

  const results: LatencySummary[] = [];
  results.push(
    await run('bare undici request (baseline)', async () => {
      const res = await request(about, {
        headers: { authorization: `bearer ${access_token}`, 'user-agent': ua },
      });
      await res.body.json();
      rig.sim.inspect.reset(); // keep the bare client under the simulator's limit
    }),
  );
  const client = rig.client();
  results.push(
    await run('RedditClient.aboutSubreddit', async () => {
      await client.app.aboutSubreddit('startups');
    }),
  );
  const maxInMinute = rig.sim.inspect.maxRequestsInWindow(client.clientId);
  await rig.sim.close();
  await database.close();

  const base = results[0]!;
  console.log(
    `Reddit client on ${database.driver}, ${REQUESTS} requests, concurrency ${CONCURRENCY}, simulator on loopback\n`,
  );
  console.log('| call | requests | req/s | p50 ms | p99 ms | p50 vs baseline |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const r of results) {
    console.log(
      `| ${r.name} | ${r.requests} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${(r.p50 / base.p50).toFixed(2)}x |`,
    );
  }
  console.log(`\nMost requests of the client in any 60 s of simulator time: ${maxInMinute} (limit 100)`);
  if (maxInMinute > 100) process.exitCode = 1;
}

void main();
