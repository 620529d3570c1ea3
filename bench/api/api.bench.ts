/**
 * API latency at fixed request rates, measured from outside the server's process.
 *
 * `bench-server.ts` runs in a child process: the app as built for production, plus a bare Fastify
 * instance whose routes run the same service calls (the same queries) without the app's layers (JWT
 * check, scope check, contract validation and serialization, hooks). This process drives both with
 * autocannon at 200, 500 and 1000 requests a second (`overallRate`) over a mix of authenticated reads, and
 * reports p50, p99 and errors for each, first on PGlite, then on PostgreSQL.
 *
 * autocannon paces each connection per second: a connection sends its share of the second back to back,
 * then waits for the next second. To keep the offered load close to even, each rate is split into
 * SLICES autocannon instances started 1000/SLICES ms apart, each with a small number of connections.
 * Latency is each response's own time (autocannon's correction for coordinated omission assumes a whole
 * number of milliseconds between requests, which these rates do not have). App and bare take turns in
 * short segments (app, bare, bare, app, ...), so whatever else the machine does falls on both alike.
 *
 *   npm run bench:api
 *   DATABASE_URL=postgres://user@host:5432/db npm run bench:api   (the server whose scratch database is used)
 *   BENCH_ROUNDS=4 BENCH_SEGMENT_S=4 BENCH_SLICES=10 BENCH_CONNECTIONS=2   (connections per slice)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as delay } from 'node:timers/promises';
import autocannon from 'autocannon';
import pg from 'pg';
import { summarize, type LatencySummary } from '../lib/latency';
import type { TBenchServerReady, TMixEntry } from './bench-server';

const RATES = [200, 500, 1000];
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const SEGMENT_S = Number(process.env.BENCH_SEGMENT_S ?? 4);
const WARMUP_S = 3;
const SLICES = Number(process.env.BENCH_SLICES ?? 10);
const CONNECTIONS_PER_SLICE = Number(process.env.BENCH_CONNECTIONS ?? 2);
/** The targets: p99 at 1000 req/s on PostgreSQL, absolute and against the bare route. */
const TARGET_P99_MS = 25;
const TARGET_RATIO = 1.5;
const POSTGRES_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/** Named after the given database, so runs against different databases never drop each other's. */
const SCRATCH_DATABASE = `${new URL(POSTGRES_URL).pathname.slice(1) || 'threadreach'}_bench_api`.replace(
  /\W/g,
  '_',
);
const HERE = import.meta.dirname;
const RESULTS_FILE = path.join(HERE, 'results.md');

interface TRun extends LatencySummary {
  target: 'app' | 'bare';
  rate: number;
  errors: number;
  statuses: Record<string, number>;
}

/** What one segment of load gave: every response's time, and the failures. */
interface TSample {
  latencies: number[];
  errors: number;
  statuses: Record<string, number>;
}

/** One segment: `rate` requests a second for `seconds`, spread over staggered autocannon instances. */
async function load(
  baseUrl: string,
  mix: TMixEntry[],
  target: 'app' | 'bare',
  rate: number,
  seconds: number,
): Promise<TSample> {
  const sample: TSample = { latencies: [], errors: 0, statuses: {} };
  const requests = mix.map((entry) => ({
    method: 'GET' as const,
    path: target === 'app' ? entry.appPath : entry.barePath,
    // As a browser asks: the app gzips answers of 1 KiB or more (the project list), the bare route does not.
    headers: { authorization: entry.authorization, 'accept-encoding': 'gzip, deflate, br, zstd' },
  }));
  const runs: Promise<autocannon.Result>[] = [];
  for (let slice = 0; slice < SLICES; slice++) {
    if (slice > 0) await delay(1000 / SLICES);
    runs.push(
      new Promise((resolve, reject) => {
        const instance = autocannon(
          {
            url: baseUrl,
            connections: CONNECTIONS_PER_SLICE,
            overallRate: rate / SLICES,
            duration: seconds,
            requests,
            timeout: 10,
            ignoreCoordinatedOmission: true,
          },
          (error, result) => (error ? reject(error) : resolve(result)),
        );
        instance.on('response', (_client, statusCode, _bytes, responseTime) => {
          sample.latencies.push(responseTime);
          sample.statuses[statusCode] = (sample.statuses[statusCode] ?? 0) + 1;
          if (statusCode < 200 || statusCode > 299) sample.errors++;
        });
      }),
    );
  }
  const results = await Promise.all(runs);
  sample.errors += results.reduce((n, r) => n + r.errors + r.timeouts, 0);
  return sample;
}

/** The segments of one target at one rate, pooled. */
function pool(target: 'app' | 'bare', rate: number, samples: TSample[]): TRun {
  const latencies = samples.flatMap((s) => s.latencies);
  const statuses: Record<string, number> = {};
  for (const s of samples) {
    for (const [code, n] of Object.entries(s.statuses)) statuses[code] = (statuses[code] ?? 0) + n;
  }
  // Each slice runs the segment's length; the staggered starts are not load time.
  const summary = summarize(`${target} @ ${rate}`, latencies, samples.length * SEGMENT_S * 1000);
  return { ...summary, target, rate, errors: samples.reduce((n, s) => n + s.errors, 0), statuses };
}

/** Starts the server process and waits for its ready line. */
async function startServer(
  databaseUrl: string | null,
): Promise<{ child: ChildProcess; ready: TBenchServerReady }> {
  const env = { ...process.env };
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  else delete env.DATABASE_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(HERE, 'bench-server.ts')], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  const ready = await new Promise<TBenchServerReady>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('The bench server did not start within 120 s')), 120_000);
    lines.once('line', (line) => {
      clearTimeout(timer);
      resolve(JSON.parse(line) as TBenchServerReady);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`The bench server exited with code ${code}`));
    });
  });
  return { child, ready };
}

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** A scratch database on the PostgreSQL server, or null (with the reason) when it cannot be reached. */
async function scratchPostgres(): Promise<{ url: string; drop: () => Promise<void> } | { skipped: string }> {
  const admin = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch (error) {
    return { skipped: `PostgreSQL at ${POSTGRES_URL} is unreachable (${(error as Error).message})` };
  }
  await admin.query(`drop database if exists ${SCRATCH_DATABASE} with (force)`);
  await admin.query(`create database ${SCRATCH_DATABASE}`);
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${SCRATCH_DATABASE}`;
  return {
    url: url.toString(),
    drop: async () => {
      await admin.query(`drop database if exists ${SCRATCH_DATABASE} with (force)`);
      await admin.end();
    },
  };
}

interface TDriverResult {
  driver: string;
  ready: TBenchServerReady;
  runs: TRun[];
  loadBefore: number[];
  loadAfter: number[];
}

async function benchDriver(databaseUrl: string | null): Promise<TDriverResult> {
  const { child, ready } = await startServer(databaseUrl);
  try {
    const loadBefore = os.loadavg();
    // Warm both up (JIT, connection pools, query plans) before anything is counted.
    await load(ready.appUrl, ready.mix, 'app', 200, WARMUP_S);
    await load(ready.bareUrl, ready.mix, 'bare', 200, WARMUP_S);
    const runs: TRun[] = [];
    for (const rate of RATES) {
      const samples = { app: [] as TSample[], bare: [] as TSample[] };
      for (let round = 0; round < ROUNDS; round++) {
        const order = round % 2 === 0 ? (['app', 'bare'] as const) : (['bare', 'app'] as const);
        for (const target of order) {
          const url = target === 'app' ? ready.appUrl : ready.bareUrl;
          samples[target].push(await load(url, ready.mix, target, rate, SEGMENT_S));
        }
      }
      for (const target of ['app', 'bare'] as const) {
        const run = pool(target, rate, samples[target]);
        console.log(
          `${ready.driver} ${target} @ ${rate} req/s: p50 ${run.p50.toFixed(2)} ms, p99 ${run.p99.toFixed(2)} ms, ${run.requests} requests, ${run.errors} errors`,
        );
        runs.push(run);
      }
    }
    return { driver: ready.driver, ready, runs, loadBefore, loadAfter: os.loadavg() };
  } finally {
    await stopServer(child);
  }
}

const ms = (n: number) => n.toFixed(2);
const load3 = (l: number[]) => l.map((n) => n.toFixed(2)).join(', ');

function driverTable(result: TDriverResult): string[] {
  const lines = [
    `### ${result.driver === 'postgres' ? 'PostgreSQL' : 'PGlite'}`,
    '',
    `Load average (1, 5, 15 min) before: ${load3(result.loadBefore)}; after: ${load3(result.loadAfter)}.`,
    '',
    '| rate req/s | app done req/s | app p50 ms | app p95 ms | app p99 ms | app errors | bare p50 ms | bare p95 ms | bare p99 ms | bare errors | p99 app / bare |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const rate of RATES) {
    const app = result.runs.find((r) => r.rate === rate && r.target === 'app')!;
    const bare = result.runs.find((r) => r.rate === rate && r.target === 'bare')!;
    lines.push(
      `| ${rate} | ${app.rps.toFixed(0)} | ${ms(app.p50)} | ${ms(app.p95)} | ${ms(app.p99)} | ${app.errors} | ` +
        `${ms(bare.p50)} | ${ms(bare.p95)} | ${ms(bare.p99)} | ${bare.errors} | ${(app.p99 / bare.p99).toFixed(2)}x |`,
    );
  }
  return lines;
}

function verdict(result: TDriverResult): string {
  const app = result.runs.find((r) => r.rate === 1000 && r.target === 'app')!;
  const bare = result.runs.find((r) => r.rate === 1000 && r.target === 'bare')!;
  const ratio = app.p99 / bare.p99;
  const absolute = app.p99 <= TARGET_P99_MS ? 'met' : 'missed';
  const relative = ratio <= TARGET_RATIO ? 'met' : 'missed';
  return (
    `Target at 1000 req/s on PostgreSQL: p99 ≤ ${TARGET_P99_MS} ms (${ms(app.p99)} ms: ${absolute}) and ≤ ` +
    `${TARGET_RATIO}x the bare route (${ratio.toFixed(2)}x: ${relative}).`
  );
}

async function main() {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const machine = `${os.availableParallelism()} × ${cpu}, Node ${process.version}, ${os.platform()} ${os.release()}`;
  console.log(`Machine: ${machine}`);
  const results: TDriverResult[] = [];
  const notes: string[] = [];

  results.push(await benchDriver(null));

  const postgres = await scratchPostgres();
  if ('skipped' in postgres) {
    notes.push(`PostgreSQL skipped: ${postgres.skipped}.`);
    console.log(notes.at(-1));
  } else {
    try {
      results.push(await benchDriver(postgres.url));
    } finally {
      await postgres.drop();
    }
  }

  const mix = results[0]!.ready.mix;
  const counts = new Map<string, number>();
  for (const entry of mix) counts.set(entry.name, (counts.get(entry.name) ?? 0) + 1);
  const mixText = [...counts].map(([name, n]) => `${n}× ${name}`).join(', ');
  const report = [
    '# API latency at fixed rates',
    '',
    `Machine: ${machine}. Run: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
    '',
    `Load: autocannon in its own process; per rate, app and bare take turns in ${ROUNDS} rounds of ` +
      `${SEGMENT_S} s each (${ROUNDS * SEGMENT_S} s per target) after a ${WARMUP_S} s warm-up; ` +
      `each segment split over ${SLICES} autocannon instances started ${1000 / SLICES} ms apart ` +
      `(${CONNECTIONS_PER_SLICE} keep-alive connections each, \`overallRate\` = rate / ${SLICES}).`,
    `Mix of every ${mix.length} requests: ${mixText}; a customer with ${results[0]!.ready.projects} projects, ` +
      `an admin and ${results[0]!.ready.credentials} credentials.`,
    '`app`: the server as `npm start` builds it, request logging at level info (buffered as on stdout, to /dev/null, and copied into system_logs). `bare`: a bare Fastify route in the same process making the ' +
      "same service call (the same queries, the project access check's included) with no JWT check, scope check, contract validation, serialization or compression. Requests ask for compressed answers, as browsers do: the app gzips those of 1 KiB or more.",
    'Both share the machine with the load generator; the load average says how busy it was otherwise. ' +
      'A done rate below the offered rate means that target could not keep up: its latency is then queueing.',
    '',
    ...results.flatMap((r) => [...driverTable(r), '']),
    ...results.filter((r) => r.driver === 'postgres').map(verdict),
    ...notes,
    '',
  ].join('\n');
  writeFileSync(RESULTS_FILE, report);
  console.log(`\n${report}`);
  console.log(`Written to ${path.relative(process.cwd(), RESULTS_FILE)}`);
  if (results.some((r) => r.runs.some((run) => run.errors > 0))) process.exitCode = 1;
}

void main();
