/**
 * API latency and throughput on loopback, as ratios against the cheapest route in the same run.
 * Baseline: GET /api/v1/health (no auth, one `select 1`). Measured: authenticated reads and writes that
 * verify the JWT, run the project-scope check and hit the database.
 *
 *   npm run bench:api            (PGlite, in memory)
 *   DATABASE_URL=postgres://... npm run bench:api
 */
import { buildProject, buildUser, validProductInfo } from '../../apps/server/src/test/factories';
import { createTestApp } from '../../apps/server/src/test/test-app';
import { summarize, type LatencySummary } from '../lib/latency';

const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 3000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 20);

interface Result extends LatencySummary {
  errors: number;
}

async function run(name: string, send: () => Promise<Response>): Promise<Result> {
  const latencies: number[] = [];
  let errors = 0;
  const until = performance.now() + DURATION_MS;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < until) {
        const t0 = performance.now();
        const res = await send();
        await res.arrayBuffer();
        latencies.push(performance.now() - t0);
        if (!res.ok) errors++;
      }
    }),
  );
  return { ...summarize(name, latencies, performance.now() - started), errors };
}

async function main() {
  const t = await createTestApp({ listen: true, env: { JOBS_ENABLED: 'false' } });
  // The test helper migrates PGlite itself; a PostgreSQL database may be fresh here.
  if (t.database.driver === 'postgres') await t.database.migrate();
  const { database, config } = t;
  const base = t.url;

  const user = await buildUser(database.db, config, { profilesLimit: 100 });
  const project = await buildProject(database.db, config, { owner: user });
  for (let i = 0; i < 20; i++) await buildProject(database.db, config, { owner: user });
  const headers = { ...user.auth, 'content-type': 'application/json' };
  const info = JSON.stringify(validProductInfo());

  const results = [
    await run('GET /health (baseline)', () => fetch(`${base}/api/v1/health`)),
    await run('GET /me', () => fetch(`${base}/api/v1/me`, { headers })),
    await run('GET /projects (21 rows)', () => fetch(`${base}/api/v1/projects`, { headers })),
    await run('GET /projects/:id/product-info', () =>
      fetch(`${base}/api/v1/projects/${project.id}/product-info`, { headers }),
    ),
    await run('PUT /projects/:id/product-info', () =>
      fetch(`${base}/api/v1/projects/${project.id}/product-info`, { method: 'PUT', headers, body: info }),
    ),
  ];
  await t.close();

  const base0 = results[0]!;
  console.log(
    `API on loopback, ${database.driver}, concurrency ${CONCURRENCY}, ${DURATION_MS} ms per route\n`,
  );
  console.log('| route | requests | req/s | p50 ms | p99 ms | errors | p50 vs baseline |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const r of results) {
    console.log(
      `| ${r.name} | ${r.requests} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.errors} | ${(r.p50 / base0.p50).toFixed(2)}x |`,
    );
  }
  if (results.some((r) => r.errors > 0)) process.exitCode = 1;
}

void main();
