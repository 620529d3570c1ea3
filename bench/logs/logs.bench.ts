/**
 * System logs at 1 million rows: p95 of /logs pages (a filtered page, a text search) on PGlite and
 * PostgreSQL, and the write overhead of storing every log line, per request, against logging off.
 *
 *   npm run bench:logs
 *   BENCH_PG_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:logs   (that is the default)
 *   BENCH_RATE=600 npm run bench:logs   (the write segments at a fixed rate instead of as fast as answered)
 *   BENCH_PGLITE=0 npm run bench:logs   (PostgreSQL only)
 *
 * PostgreSQL runs in a database of its own, named after the one in BENCH_PG_URL (`<name>_bench_logs`,
 * created and dropped here); without a server it is skipped.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { Database } from '../../apps/server/src/db/client';
import {
  insertSystemLogs,
  systemLogBatchJson,
  type NewSystemLogRow,
} from '../../apps/server/src/features/system-logs';
import { bufferedStdout } from '../../apps/server/src/logging/buffered-stdout';
import { buildUser, type TestUser } from '../../apps/server/src/test/factories';
import { createTestApp, type TestApp } from '../../apps/server/src/test/test-app';
import { summarize, type LatencySummary } from '../lib/latency';
import type { LoadOrder, LoadResult } from './load-client';

const ROWS = Number(process.env.BENCH_LOG_ROWS ?? 1_000_000);
const DAYS = 7;
const QUERY_RUNS = Number(process.env.BENCH_QUERY_RUNS ?? 40);
const WRITE_MS = Number(process.env.BENCH_DURATION_MS ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 16);
/** Requests a second in the write-overhead segments; 0 (the default) as many as the server answers. */
const RATE = Number(process.env.BENCH_RATE ?? 0);
/** Lines each table variant stores in the measurement of a stored line alone. */
const LINE_COST_LINES = Number(process.env.BENCH_LINE_COST_LINES ?? 100_000);
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const BENCH_DB = `${new URL(PG_URL).pathname.slice(1) || 'postgres'}_bench_logs`;
const PAGE_TARGET_MS = 100;
const OVERHEAD_TARGET = 0.05;

const out: string[] = [];
const say = (line = '') => {
  console.log(line);
  out.push(line);
};

/**
 * 1M lines over the last 7 days (about 100 a minute): 60% access lines, 30% server lines, 10% AI lines;
 * 1% of the server lines are timeouts; one line carries a unique needle.
 */
async function seed(database: Database, nowMs: number) {
  const chunk = 100_000;
  const spanMs = DAYS * 86_400_000;
  // A bulk load builds the text index once at the end instead of row by row; the schema ends up the same.
  await database.db.execute(sql`drop index if exists system_logs_message_lower_trgm_idx`);
  for (let start = 0; start < ROWS; start += chunk) {
    const n = Math.min(chunk, ROWS - start);
    await database.db.execute(sql`
      insert into system_logs (timestamp, level, logger, message)
      select
        to_timestamp((${nowMs}::float8 - (i::float8 / ${ROWS}::float8) * ${spanMs}::float8) / 1000.0),
        case when i % 100 < 70 then 'INFO' when i % 100 < 85 then 'DEBUG' when i % 100 < 93 then 'WARNING'
             when i % 100 < 99 then 'ERROR' else 'CRITICAL' end,
        case when i % 10 < 6 then 'http.access' when i % 10 < 9 then 'server' else 'ai-service' end,
        case
          when i = ${Math.floor(ROWS / 2)}::int then 'request failed: needle-5f3c9e21 upstream closed'
          when i % 10 < 6 then 'GET /api/v1/projects/' || md5(i::text) || '/keywords ' ||
            (case when i % 50 = 0 then 500 else 200 end) || ' ' || (i % 97) || 'ms'
          when i % 10 < 9 and i % 100 = 7 then 'reddit request timeout after 30000ms for credential ' || (i % 13)
          when i % 10 < 9 then 'discovery cycle read ' || (i % 500) || ' items from ' || (i % 40) || ' groups'
          else 'ai draft written for project ' || substr(md5(i::text), 1, 8) || ' in ' || (i % 900) || 'ms'
        end
      from generate_series(${start + 1}::int, ${start + n}::int) as i`);
  }
  // As migration 0006 declares it.
  await database.db.execute(
    sql`create index system_logs_message_lower_trgm_idx on system_logs using gin (lower(message) gin_trgm_ops)`,
  );
  await database.db.execute(
    sql`alter index system_logs_message_lower_trgm_idx alter column 1 set statistics 1000`,
  );
  // The hourly counts the server keeps beside the lines.
  await database.db.execute(sql`
    insert into system_log_counts (hour, level, logger, lines)
    select date_trunc('hour', timestamp), level, logger, count(*) from system_logs group by 1, 2, 3`);
  await database.db.execute(sql`analyze system_logs`);
}

async function timeQuery(t: TestApp, admin: TestUser, name: string, query: string): Promise<LatencySummary> {
  const url = `/api/v1/system/logs?${query}`;
  const first = await t.app.inject({ url, headers: admin.auth });
  if (first.statusCode !== 200) throw new Error(`${name}: ${first.statusCode} ${first.body}`);
  const latencies: number[] = [];
  const started = performance.now();
  for (let i = 0; i < QUERY_RUNS; i++) {
    const t0 = performance.now();
    const res = await t.app.inject({ url, headers: admin.auth });
    latencies.push(performance.now() - t0);
    if (res.statusCode !== 200) throw new Error(`${name}: ${res.statusCode}`);
  }
  const summary = summarize(name, latencies, performance.now() - started);
  const body = first.json<{ total: number; counts_capped: boolean }>();
  return { ...summary, name: `${name} (${body.total}${body.counts_capped ? '+' : ''} matching)` };
}

async function queries(driver: string, makeApp: () => Promise<TestApp>) {
  const t = await makeApp();
  if (t.database.driver === 'postgres') await t.database.migrate();
  await t.database.db.execute(sql`truncate system_logs, system_log_counts`);
  const now = Date.now();
  const t0 = performance.now();
  await seed(t.database, now);
  const seedMs = performance.now() - t0;
  const admin = await buildUser(t.ctx.db, t.config, { roles: ['ADMIN'] });
  const week = `start_time=${new Date(now - DAYS * 86_400_000).toISOString()}&end_time=${new Date(now).toISOString()}`;
  const results = [
    await timeQuery(t, admin, 'last hour, no filter', 'period=1h'),
    await timeQuery(
      t,
      admin,
      'filtered page: ERROR, server, last hour',
      'period=1h&level=ERROR&logger_file=server',
    ),
    await timeQuery(
      t,
      admin,
      'filtered page: ERROR, server, 7 days',
      `${week}&level=ERROR&logger_file=server`,
    ),
    await timeQuery(
      t,
      admin,
      'filtered page 50 (offset 4900), 7 days',
      `${week}&logger_file=uvicorn.access&offset=4900`,
    ),
    await timeQuery(t, admin, "text search 'timeout', last hour", 'period=1h&search=timeout'),
    await timeQuery(t, admin, "text search 'timeout', 7 days", `${week}&search=timeout`),
    await timeQuery(t, admin, 'text search for one line, 7 days', `${week}&search=needle-5f3c9e21`),
  ];
  await t.close();
  say(
    `### ${driver}: /logs over ${ROWS.toLocaleString('en')} rows (seeded in ${(seedMs / 1000).toFixed(0)} s)`,
  );
  say();
  say(
    `Each query ${QUERY_RUNS} times in a row, through the route (page + per-level counts; a text search ` +
      'stops counting at 1000 lines, shown as 1000+).',
  );
  say();
  say('| query | p50 ms | p95 ms | max ms |');
  say('|---|---:|---:|---:|');
  for (const r of results)
    say(`| ${r.name} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.p99.toFixed(1)} |`);
  say();
  return results;
}

type LogMode = 'off' | 'stdout only' | 'stdout + system_logs' | 'the same, batches not sent';

/**
 * The last mode does all the server's work of storing lines (rows, batches and their JSON) but sends no
 * statement: against the mode before it, it parts the server's own cost from the database's, which on a
 * machine shared with the database also slows the server.
 */
const NOT_SENT = { store: async (rows: NewSystemLogRow[]) => void systemLogBatchJson(rows) };

/** How long the machine is given after each segment to finish what the segment left it (stored batches, vacuum). */
const SETTLE_MS = Number(process.env.BENCH_SETTLE_MS ?? 500);

/** CPU time of the whole machine so far (every process, PostgreSQL's included), in microseconds. */
function machineBusyUs(): number | null {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1);
    const [user, nice, system, , , irq, softirq, steal] = fields.map(Number);
    // /proc/stat counts in USER_HZ ticks, 100 a second on Linux.
    return (user! + nice! + system! + irq! + softirq! + steal!) * 10_000;
  } catch {
    return null;
  }
}

/**
 * CPU time of the local PostgreSQL server's processes so far, in microseconds: each process's own and its
 * reaped children's (autovacuum workers come and go), or null where no such process can be read.
 */
function databaseBusyUs(): number | null {
  let total = 0;
  let seen = false;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue;
    }
    const close = stat.lastIndexOf(')');
    if (stat.slice(stat.indexOf('(') + 1, close) !== 'postgres') continue;
    // Fields after the command: state is 3rd; utime, stime, cutime, cstime are the 14th to 17th.
    const [utime, stime, cutime, cstime] = stat
      .slice(close + 2)
      .split(' ')
      .slice(11, 15)
      .map(Number);
    total += (utime! + stime! + cutime! + cstime!) * 10_000;
    seen = true;
  }
  return seen ? total : null;
}

/** The load generator's process (`load-client.ts`), one order at a time. */
class LoadClient {
  private child: ChildProcess | null = null;

  run(order: LoadOrder): Promise<LoadResult> {
    this.child ??= spawn(
      process.execPath,
      ['--import', 'tsx', path.join(import.meta.dirname, 'load-client.ts')],
      {
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      },
    );
    const child = this.child;
    return new Promise((resolve, reject) => {
      const exited = (code: number | null) => reject(new Error(`The load client exited with code ${code}`));
      child.once('exit', exited);
      child.once('message', (result: LoadResult) => {
        child.off('exit', exited);
        resolve(result);
      });
      child.send(order);
    });
  }

  close() {
    this.child?.kill();
    this.child = null;
  }
}

const loadClient = new LoadClient();

interface TLoadApp {
  mode: LogMode;
  t: TestApp;
  headers: Record<string, string>;
}

async function startApp(
  mode: LogMode,
  makeApp: (o: Parameters<typeof createTestApp>[0]) => Promise<TestApp>,
): Promise<TLoadApp> {
  const t = await makeApp({
    listen: true,
    env: { JOBS_ENABLED: 'false' },
    // stdout as the server writes it (blocks of lines), into /dev/null.
    logger: mode === 'off' ? false : { stream: bufferedStdout('/dev/null'), level: 'info' },
    systemLogs:
      mode === 'stdout + system_logs' ? true : mode === 'the same, batches not sent' ? NOT_SENT : false,
  });
  if (t.database.driver === 'postgres') await t.database.migrate();
  const user = await buildUser(t.ctx.db, t.config, { profilesLimit: 10 });
  return { mode, t, headers: user.auth };
}

/** One segment of load on a running app, its stored lines flushed and the machine settled before it ends. */
async function load({ t, headers }: TLoadApp) {
  // The previous segment's garbage is collected before, not during, this one (npm script: --expose-gc).
  (globalThis as { gc?: () => void }).gc?.();
  const stored = t.ctx.systemLogs;
  const countsBefore = stored ? { ...stored.counts } : null;
  const cpuBefore = process.cpuUsage();
  const machineBefore = machineBusyUs();
  // PGlite runs in the server's process: its work is the server's CPU.
  const dbBefore = t.database.driver === 'postgres' ? databaseBusyUs() : null;
  const { latencies, elapsedMs, errors } = await loadClient.run({
    url: `${t.url}/api/v1/projects`,
    headers,
    ms: WRITE_MS,
    concurrency: CONCURRENCY,
    rate: RATE,
  });
  // The batches still queued are part of the cost, and so is what the database does with them after.
  await stored?.flush();
  await delay(SETTLE_MS);
  const cpu = process.cpuUsage(cpuBefore);
  const machineAfter = machineBusyUs();
  const dbAfter = dbBefore === null ? null : databaseBusyUs();
  if (errors) throw new Error(`${errors} failed requests`);
  const counts =
    stored && countsBefore
      ? {
          written: stored.counts.written - countsBefore.written,
          dropped: stored.counts.dropped - countsBefore.dropped,
        }
      : null;
  const cpuMsPerRequest = (cpu.user + cpu.system) / 1000 / latencies.length;
  const machineMsPerRequest =
    machineBefore === null || machineAfter === null
      ? null
      : (machineAfter - machineBefore) / 1000 / latencies.length;
  const dbMsPerRequest =
    dbBefore === null || dbAfter === null ? null : (dbAfter - dbBefore) / 1000 / latencies.length;
  return {
    ...summarize('segment', latencies, elapsedMs),
    counts,
    cpuMsPerRequest,
    machineMsPerRequest,
    dbMsPerRequest,
    serviceMsPerRequest: dbMsPerRequest === null ? cpuMsPerRequest : cpuMsPerRequest + dbMsPerRequest,
  };
}

/** The code that writes log lines: the access line, pino, redaction and scrubbing, stdout, the sink, its statement. */
const LOGGING_CODE =
  /\/http\/access-log\.ts$|\/http\/logger\.ts$|\/node_modules\/(pino|sonic-boom)\/|\/logging\/(system-log-sink|buffered-stdout)\.ts$|\/features\/system-logs\/(log-line|system-logs\.repository)\.ts$/;

interface TProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

/**
 * One more segment on `app` under a CPU profile: the share of the busy main thread whose stack holds
 * logging code, and the share in garbage collection. Shares come from one run, so the machine's drift,
 * which the rounds above must average out, does not touch them; what runs later (the database's reply to
 * a batch) or on other threads is not in them.
 */
async function loggingShare(app: TLoadApp): Promise<{ logging: number; gc: number; samples: number }> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 250 });
  await session.post('Profiler.start');
  await load(app);
  const { profile } = await session.post('Profiler.stop');
  session.disconnect();
  const nodes = new Map<number, TProfileNode>();
  const parent = new Map<number, number>();
  for (const node of profile.nodes as TProfileNode[]) {
    nodes.set(node.id, node);
    for (const child of node.children ?? []) parent.set(child, node.id);
  }
  const inLogging = new Map<number, boolean>();
  const logs = (id: number): boolean => {
    let known = inLogging.get(id);
    if (known === undefined) {
      const up = parent.get(id);
      known = LOGGING_CODE.test(nodes.get(id)!.callFrame.url) || (up !== undefined && logs(up));
      inLogging.set(id, known);
    }
    return known;
  };
  let busy = 0;
  let logging = 0;
  let gc = 0;
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  samples.forEach((id, i) => {
    // A sample's time is the gap to the next one.
    const us = deltas[i + 1] ?? 0;
    const name = nodes.get(id)!.callFrame.functionName;
    if (name === '(idle)') return;
    busy += us;
    if (name === '(garbage collector)') gc += us;
    else if (logs(id)) logging += us;
  });
  return { logging: logging / busy, gc: gc / busy, samples: samples.length };
}

/** Two-sided 95% Student t quantiles by degrees of freedom (1 to 30); beyond, 2.04 at most. */
const T95 = [
  Number.NaN,
  12.71,
  4.3,
  3.18,
  2.78,
  2.57,
  2.45,
  2.36,
  2.31,
  2.26,
  2.23,
  2.2,
  2.18,
  2.16,
  2.14,
  2.13,
  2.12,
  2.11,
  2.1,
  2.09,
  2.09,
  2.08,
  2.07,
  2.07,
  2.06,
  2.06,
  2.06,
  2.05,
  2.05,
  2.05,
  2.04,
];

type TCpuKey = 'cpuMsPerRequest' | 'machineMsPerRequest' | 'serviceMsPerRequest';

/**
 * A 95% interval for the overhead of `runs` over `off`, from the rounds' own overheads: a round's
 * segments run one after the other, so drift over the run falls on both sides of each pair.
 */
function overheadInterval(
  runs: Record<TCpuKey, number | null>[],
  off: Record<TCpuKey, number | null>[],
  key: TCpuKey,
): [number, number] {
  const ratios = runs.map((r, i) => (r[key] ?? Number.NaN) / (off[i]![key] ?? Number.NaN) - 1);
  const n = ratios.length;
  if (n < 2) return [Number.NaN, Number.NaN];
  const m = ratios.reduce((s, x) => s + x, 0) / n;
  const sd = Math.sqrt(ratios.reduce((s, x) => s + (x - m) ** 2, 0) / (n - 1));
  const half = (T95[n - 1] ?? 2.04) * (sd / Math.sqrt(n));
  return [m - half, m + half];
}

const percent = (n: number) => (Number.isNaN(n) ? 'n/a' : `${(n * 100).toFixed(1)}%`);

/** Met only when the whole interval is within the target: on a noisy machine a point estimate is not enough. */
function overheadVerdict(mean: number, [low, high]: [number, number]): string {
  if (high <= OVERHEAD_TARGET) return 'met, the whole 95% interval within it';
  if (low > OVERHEAD_TARGET) return 'NOT met, the whole 95% interval above it';
  return mean <= OVERHEAD_TARGET
    ? 'not shown: the figure is within it, its 95% interval is not'
    : 'NOT met by the figure, its 95% interval reaching below';
}

async function writeOverhead(
  driver: string,
  makeApp: (o: Parameters<typeof createTestApp>[0]) => Promise<TestApp>,
) {
  const modes: LogMode[] = ['off', 'stdout only', 'stdout + system_logs', 'the same, batches not sent'];
  // One running app per mode, as a server runs: started once, then warmed by an uncounted segment each.
  const apps: TLoadApp[] = [];
  for (const mode of modes) apps.push(await startApp(mode, makeApp));
  const runs = new Map<LogMode, Awaited<ReturnType<typeof load>>[]>(modes.map((m) => [m, []]));
  let share: Awaited<ReturnType<typeof loggingShare>>;
  try {
    for (const app of apps) await load(app);
    // Interleaved rounds in turning order, so drift on a shared machine touches every mode alike.
    for (let round = 0; round < ROUNDS; round++) {
      for (let i = 0; i < modes.length; i++) {
        const app = apps[(i + round) % modes.length]!;
        runs.get(app.mode)!.push(await load(app));
      }
    }
    share = await loggingShare(apps[modes.indexOf('stdout + system_logs')]!);
  } finally {
    for (const app of apps) await app.t.close();
  }
  const mean = (mode: LogMode, key: 'rps' | 'p50' | 'p95' | 'dbMsPerRequest' | TCpuKey) =>
    runs.get(mode)!.reduce((s, r) => s + (r[key] ?? Number.NaN), 0) / ROUNDS;
  const overhead = (mode: LogMode, key: TCpuKey) => (mean(mode, key) - mean('off', key)) / mean('off', key);
  const interval = (mode: LogMode, key: TCpuKey) => {
    const [low, high] = overheadInterval(runs.get(mode)!, runs.get('off')!, key);
    return `${percent(low)} to ${percent(high)}`;
  };
  say(`### ${driver}: write overhead per request (GET /api/v1/projects, concurrency ${CONCURRENCY})`);
  say();
  say(
    `One running app per mode, warmed, then ${ROUNDS} interleaved rounds of ${WRITE_MS} ms per mode; one access ` +
      `line per request is logged. "Batches not sent" does all the server's work of storing lines but sends ` +
      "no statement: against the mode before it, it parts the server's own cost from the database's. " +
      `After each segment its queued lines are stored and the machine is given ` +
      `${SETTLE_MS} ms to settle; both belong to the segment's figures. "Server CPU" is the server's process ` +
      '(the app and its log writes; the load comes from a process of its own); "machine CPU" is every ' +
      'process: the load generator\'s, and PostgreSQL\'s inserts and indexing; "database CPU" is the local ' +
      'PostgreSQL server\'s processes alone, so "server + database" is what a request costs the service. ' +
      `req/s and latencies are wall time${RATE ? `; the load sends ${RATE} requests a second` : ''}.`,
  );
  say();
  say(
    '| logging | req/s | p50 ms | p95 ms | server CPU ms per request | overhead vs off (95% interval) | machine CPU ms per request | overhead vs off (95% interval) | database CPU ms per request | server + database overhead (95% interval) | lines stored / dropped |',
  );
  say('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const mode of modes) {
    const counts = runs.get(mode)!.map((r) => r.counts);
    const stored =
      counts.every((c) => c) && mode !== 'the same, batches not sent'
        ? `${counts.reduce((s, c) => s + c!.written, 0)} / ${counts.reduce((s, c) => s + c!.dropped, 0)}`
        : '—';
    const off = mode === 'off';
    say(
      `| ${mode} | ${mean(mode, 'rps').toFixed(0)} | ${mean(mode, 'p50').toFixed(2)} | ${mean(mode, 'p95').toFixed(2)} | ` +
        `${mean(mode, 'cpuMsPerRequest').toFixed(3)} | ${off ? '—' : `${percent(overhead(mode, 'cpuMsPerRequest'))} (${interval(mode, 'cpuMsPerRequest')})`} | ` +
        `${mean(mode, 'machineMsPerRequest').toFixed(3)} | ${off ? '—' : `${percent(overhead(mode, 'machineMsPerRequest'))} (${interval(mode, 'machineMsPerRequest')})`} | ` +
        (Number.isNaN(mean(mode, 'dbMsPerRequest'))
          ? '— | — | '
          : `${mean(mode, 'dbMsPerRequest').toFixed(3)} | ${off ? '—' : `${percent(overhead(mode, 'serviceMsPerRequest'))} (${interval(mode, 'serviceMsPerRequest')})`} | `) +
        `${stored} |`,
    );
  }
  say();
  say(
    'The interval comes from the spread of the rounds: each round compares a mode with the "off" segment ' +
      'next to it, and the per-round overheads give a Student t interval for their mean.',
  );
  say();
  say(
    `CPU profile of one more ${WRITE_MS} ms segment with stdout + system_logs (${share.samples} samples): ` +
      `${percent(share.logging)} of the server's busy main thread is in code that writes log lines (the ` +
      `access line, pino, redaction, stdout, the sink and its batch statement), ${percent(share.gc)} in ` +
      "garbage collection (all of it, the requests' too).",
  );
  say();
  return {
    server: overhead('stdout + system_logs', 'cpuMsPerRequest'),
    serverInterval: overheadInterval(runs.get('stdout + system_logs')!, runs.get('off')!, 'cpuMsPerRequest'),
    notSent: overhead('the same, batches not sent', 'cpuMsPerRequest'),
    notSentInterval: overheadInterval(
      runs.get('the same, batches not sent')!,
      runs.get('off')!,
      'cpuMsPerRequest',
    ),
    share,
    machine: overhead('stdout + system_logs', 'machineMsPerRequest'),
    service: overhead('stdout + system_logs', 'serviceMsPerRequest'),
    offServiceMsPerRequest: mean('off', 'serviceMsPerRequest'),
  };
}

/** The two sets of lines a stored line's cost is measured with. */
const LINE_KINDS = {
  // What the write-overhead segments log: the same short access line over and over.
  'access lines of GET /api/v1/projects': (i: number) => ({
    logger: 'http.access',
    message: `GET /api/v1/projects 200 ${(i % 97) / 10}ms`,
  }),
  // As the seeded lines: access lines naming a project, server and AI lines.
  'mixed, as seeded': (i: number) =>
    i % 10 < 6
      ? {
          logger: 'http.access',
          message: `GET /api/v1/projects/${randomUUID()}/keywords ${i % 50 === 0 ? 500 : 200} ${i % 97}ms`,
        }
      : i % 10 < 9
        ? { logger: 'server', message: `discovery cycle read ${i % 500} items from ${i % 40} groups` }
        : {
            logger: 'ai-service',
            message: `ai draft written for project ${randomUUID().slice(0, 8)} in ${i % 900}ms`,
          },
} satisfies Record<string, (i: number) => { logger: string; message: string }>;

/** The table as shipped, then without its trigram index, then with its primary key alone. */
const TABLE_VARIANTS: [name: string, dropBefore: string[]][] = [
  ['as shipped (4 indexes)', []],
  ['without the trigram index', ['system_logs_message_lower_trgm_idx']],
  ['primary key only', ['system_logs_time_idx', 'system_logs_level_time_idx', 'system_logs_logger_time_idx']],
];

/**
 * What one stored line costs the database and the server, measured alone: batches of 500 through the
 * server's own statement, nothing else running, so neither process is slowed by the other as in the
 * segments above. The database's CPU is its processes' (a vacuum after each variant included: autovacuum
 * would do it, and it empties the trigram index's pending list).
 */
async function lineCost(makeApp: () => Promise<TestApp>, offServiceMsPerRequest: number) {
  const t = await makeApp();
  const db = t.database.db;
  const rows: { variant: string; kind: string; dbUs: number; serverUs: number; share: number }[] = [];
  try {
    for (const [variant, drop] of TABLE_VARIANTS) {
      for (const index of drop) await db.execute(sql.raw(`drop index ${index}`));
      for (const [kind, line] of Object.entries(LINE_KINDS)) {
        await db.execute(sql`truncate system_logs, system_log_counts`);
        const now = Date.now();
        const batches = Array.from({ length: Math.ceil(LINE_COST_LINES / 500) }, (_, b) =>
          Array.from({ length: 500 }, (_, j): NewSystemLogRow => {
            const i = b * 500 + j;
            return { timestamp: new Date(now + i), level: 'INFO', ...line(i) };
          }),
        );
        (globalThis as { gc?: () => void }).gc?.();
        const cpuBefore = process.cpuUsage();
        const dbBefore = databaseBusyUs();
        for (const batch of batches) await insertSystemLogs(db, batch);
        const cpu = process.cpuUsage(cpuBefore);
        await db.execute(sql`vacuum system_logs`);
        const dbAfter = databaseBusyUs();
        if (dbBefore === null || dbAfter === null) return null;
        const lines = batches.length * 500;
        const dbUs = (dbAfter - dbBefore) / lines;
        const serverUs = (cpu.user + cpu.system) / lines;
        rows.push({
          variant,
          kind,
          dbUs,
          serverUs,
          share: (dbUs + serverUs) / 1000 / offServiceMsPerRequest,
        });
      }
    }
  } finally {
    await t.close();
  }
  say('### PostgreSQL: one stored line, measured alone');
  say();
  say(
    `${LINE_COST_LINES.toLocaleString('en')} lines per row, in batches of 500 through the server's own statement, ` +
      "nothing else running: the database's CPU is its processes' (a vacuum after each row included), the " +
      "server's is the statement's JSON and the driver. The share is of a request's server + database CPU " +
      `with logging off in the segments above (${offServiceMsPerRequest.toFixed(3)} ms), one line per request.`,
  );
  say();
  say('| table | lines | database CPU µs per line | server CPU µs per line | share of a request |');
  say('|---|---|---:|---:|---:|');
  for (const r of rows) {
    say(
      `| ${r.variant} | ${r.kind} | ${r.dbUs.toFixed(1)} | ${r.serverUs.toFixed(1)} | ${percent(r.share)} |`,
    );
  }
  say();
  // The first row: the table as shipped, with the lines the segments above log.
  return rows[0]!;
}

async function postgresUrl(): Promise<string | null> {
  const admin = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
  try {
    await admin.connect();
    await admin.query(`drop database if exists ${BENCH_DB} with (force)`);
    await admin.query(`create database ${BENCH_DB}`);
    const url = new URL(PG_URL);
    url.pathname = `/${BENCH_DB}`;
    return url.toString();
  } catch (error) {
    say(`PostgreSQL at ${PG_URL} is not reachable (${(error as Error).message}): its part is skipped.`);
    say();
    return null;
  } finally {
    await admin.end().catch(() => {});
  }
}

async function dropPostgres() {
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${BENCH_DB} with (force)`);
  await admin.end();
}

/** createTestApp on the given database: PGlite in memory, or the benchmark's PostgreSQL database. */
function appOn(url: string | null) {
  return async (options: Parameters<typeof createTestApp>[0] = {}) => {
    const saved = process.env.DATABASE_URL;
    if (url) process.env.DATABASE_URL = url;
    else delete process.env.DATABASE_URL;
    try {
      return await createTestApp({ env: { JOBS_ENABLED: 'false' }, ...options });
    } finally {
      if (saved === undefined) delete process.env.DATABASE_URL;
      else process.env.DATABASE_URL = saved;
    }
  };
}

async function main() {
  say(`# System logs benchmark`);
  say();
  say(
    `${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${ROWS.toLocaleString('en')} rows.`,
  );
  say();
  const pgUrl = await postgresUrl();
  const verdicts: string[] = [];
  try {
    for (const [driver, url] of [
      ['PostgreSQL', pgUrl],
      ['PGlite', null],
    ] as const) {
      if (driver === 'PostgreSQL' && !url) continue;
      if (driver === 'PGlite' && process.env.BENCH_PGLITE === '0') continue;
      const results = await queries(driver, appOn(url));
      const worst = Math.max(...results.map((r) => r.p95));
      if (driver === 'PostgreSQL') {
        verdicts.push(
          `PostgreSQL worst page p95 ${worst.toFixed(1)} ms (target ≤ ${PAGE_TARGET_MS} ms): ${worst <= PAGE_TARGET_MS ? 'met' : 'NOT met'}`,
        );
      }
      const overhead = await writeOverhead(driver, appOn(url));
      verdicts.push(
        `${driver} write overhead ${percent(overhead.server)} of the server's CPU per request ` +
          `(95% interval ${percent(overhead.serverInterval[0])} to ${percent(overhead.serverInterval[1])}; ` +
          `target ≤ ${OVERHEAD_TARGET * 100}%): ${overheadVerdict(overhead.server, overhead.serverInterval)}; ` +
          `of the whole machine's, the database's work included: ${percent(overhead.machine)}; ` +
          (driver === 'PostgreSQL'
            ? `of the server's and the database's: ${percent(overhead.service)}; `
            : '') +
          `the server's own part (batches not sent): ${percent(overhead.notSent)} ` +
          `(${percent(overhead.notSentInterval[0])} to ${percent(overhead.notSentInterval[1])}); ` +
          `by CPU profile, logging code is ${percent(overhead.share.logging)} of the server's busy main thread`,
      );
      if (driver === 'PostgreSQL') {
        const alone = await lineCost(appOn(url), overhead.offServiceMsPerRequest);
        if (alone) {
          verdicts.push(
            `PostgreSQL, one stored line measured alone (the table as shipped, the segments' access line): ` +
              `${alone.dbUs.toFixed(1)} µs of the database's CPU and ${alone.serverUs.toFixed(1)} µs ` +
              `of the server's, ${percent(alone.share)} of a request's server + database CPU with logging off; ` +
              "with the server's own part above, the cost of storing a line when neither process slows the other",
          );
        }
      }
    }
  } finally {
    loadClient.close();
    if (pgUrl) await dropPostgres();
  }
  say('### Verdict');
  say();
  for (const v of verdicts) say(`- ${v}`);
  if (process.env.BENCH_WRITE !== '0') {
    writeFileSync(path.join(import.meta.dirname, 'results.md'), `${out.join('\n')}\n`);
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
