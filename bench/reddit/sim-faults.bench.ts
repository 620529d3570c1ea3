/**
 * The simulator's latency fault in wall-clock time: requests to a targeted path take at least the
 * configured delay longer than the same requests without it, and other paths are not slowed. The
 * behaviour (which requests the fault hits) is tested in packages/reddit-sim/src/faults.test.ts. Also the
 * simulator's start-up time, once asserted by a stopwatch in corpus.test.ts.
 *
 *   npm run bench:reddit-sim
 */
import { startRedditSim } from '../../packages/reddit-sim/src/index';
import { summarize, type LatencySummary } from '../lib/latency';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 40);
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 300);
const UA = 'web:threadreach-bench:0.1.0 (by /u/threadreach_bench)';

/** Start-up of a seeded simulator (corpus generation included), which every test file pays once. */
async function startUp(): Promise<LatencySummary> {
  const times: number[] = [];
  const started = performance.now();
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    const sim = await startRedditSim({ port: 0, seed: 42 + i });
    times.push(performance.now() - t0);
    await sim.close();
  }
  return summarize('simulator start-up', times, performance.now() - started);
}

async function main() {
  const boot = await startUp();
  console.log(
    `reddit-sim start-up (seeded corpus), 5 starts: p50 ${boot.p50.toFixed(0)} ms, max ${boot.p99.toFixed(0)} ms\n`,
  );
  let now = Date.UTC(2026, 0, 5, 12);
  const sim = await startRedditSim({ port: 0, seed: 42, now: () => now });
  const tokenRes = await fetch(`${sim.url}/api/v1/access_token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from('bench-faults:secret').toString('base64')}`,
      'user-agent': UA,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  const { access_token } = (await tokenRes.json()) as { access_token: string };
  const get = async (path: string) => {
    const res = await fetch(`${sim.url}${path}`, {
      headers: { authorization: `bearer ${access_token}`, 'user-agent': UA },
    });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
  };

  async function run(name: string, path: string): Promise<LatencySummary> {
    const latencies: number[] = [];
    const started = performance.now();
    for (let i = 0; i < REQUESTS; i++) {
      now += 1000; // keeps the client far below the simulator's rate limit
      const t0 = performance.now();
      await get(path);
      latencies.push(performance.now() - t0);
    }
    return summarize(name, latencies, performance.now() - started);
  }

  const newPath = '/r/SaaS/new?limit=1&raw_json=1';
  const aboutPath = '/r/SaaS/about?raw_json=1';
  const results = [await run('GET /r/SaaS/new, no fault', newPath)];
  const id = sim.faults.add({ kind: 'latency', ms: LATENCY_MS, path: '/r/*/new' });
  try {
    results.push(await run(`GET /r/SaaS/new, latency fault ${LATENCY_MS} ms`, newPath));
    results.push(await run('GET /r/SaaS/about, fault on another path', aboutPath));
  } finally {
    sim.faults.remove(id);
    await sim.close();
  }

  const [plain, slowed, other] = results as [LatencySummary, LatencySummary, LatencySummary];
  console.log(`reddit-sim latency fault, ${REQUESTS} sequential requests per row, loopback\n`);
  console.log('| request | p50 ms | p99 ms |');
  console.log('|---|---:|---:|');
  for (const r of results) console.log(`| ${r.name} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} |`);
  const added = slowed.p50 - plain.p50;
  console.log(`\nAdded by the fault (p50): ${added.toFixed(1)} ms (configured ${LATENCY_MS} ms)`);
  console.log(`Untargeted path p50: ${other.p50.toFixed(2)} ms`);
  // The same bounds the behavioural test once checked with a stopwatch.
  if (slowed.p50 < LATENCY_MS - 10 || other.p50 >= LATENCY_MS - 50) process.exitCode = 1;
}

void main();
