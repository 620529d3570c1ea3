/**
 * The discovery engine against the obvious alternative, on the Reddit simulator with a virtual clock:
 * 100 projects of 10 keywords over 50 shared subreddits, one cycle every 60 simulated seconds for 30
 * simulated minutes. Ours: `runDiscoveryCycle` (multireddit listings, one compiled matcher). Baseline:
 * every project searches each of its subreddits for each keyword, through the same Reddit client; its
 * leads are the new results the same matcher accepts for that project. Reported: Reddit requests per
 * cycle of each, recall of the baseline's leads by ours, time from posting to our stored lead, and the
 * matcher's throughput against a naive loop of `includes`.
 *
 *   npm run bench:discovery            (PGlite, in memory)
 *   DATABASE_URL=postgres://... npm run bench:discovery
 *   BENCH_MINUTES=5 npm run bench:discovery   (a shorter run)
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, gt, inArray } from 'drizzle-orm';
import { startRedditSim } from '@threadreach/reddit-sim';
import { loadConfig } from '../../apps/server/src/config/config';
import { createAppContext } from '../../apps/server/src/context';
import { openDatabase, type Db } from '../../apps/server/src/db/client';
import { createCredential } from '../../apps/server/src/features/credentials';
import { runDiscoveryCycle } from '../../apps/server/src/features/discovery';
import { compileMatcher } from '../../apps/server/src/features/discovery/matcher';
import { discoveryFilters, keywords } from '../../apps/server/src/features/keywords/keywords.table';
import { leads } from '../../apps/server/src/features/leads/leads.table';
import { subreddits } from '../../apps/server/src/features/subreddits/subreddits.table';
import { RedditClient, RequestBudget, type Clock } from '../../apps/server/src/integrations/reddit';
import { virtualClock } from '../../apps/server/src/integrations/reddit/reddit-test-support';
import { createDirectDispatcher } from '../../apps/server/src/integrations/proxy/proxy-dispatcher';
import { buildProject } from '../../apps/server/src/test/factories';
import { baselineCycle, type LeadKey } from './baseline';
import { corpusItems, measureThroughput } from './matcher-throughput';
import { buildScenario, rulesOf } from './scenario';

const MINUTES = Number(process.env.BENCH_MINUTES ?? 30);
const INTERVAL_MS = 60_000;
/** Search credentials our engine may use, each with Reddit's normal budget of 100 requests a minute. */
const OUR_CREDENTIALS = Number(process.env.BENCH_CREDENTIALS ?? 2);
const TARGET = { ratio: 20, recall: 99, p95Seconds: 60 };

/**
 * The baseline's budget, lifted: it needs ~5000 requests a minute, 50 times what one credential may
 * send, so it would otherwise wait (and move the shared virtual clock) or need 50 credentials.
 */
class LiftedBudget extends RequestBudget {
  override async acquire(): Promise<number> {
    return 0;
  }
  override async acquireNow(): Promise<number> {
    return 0;
  }
  override async settle(): Promise<void> {}
  override async blockUntil(): Promise<void> {}
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

async function seed(db: Db, config: ReturnType<typeof loadConfig>, at: Date) {
  const scenario = buildScenario();
  const projects: { id: string; spec: (typeof scenario.projects)[number] }[] = [];
  for (const spec of scenario.projects) {
    const project = await buildProject(db, config, { name: spec.name });
    await db.insert(keywords).values(
      spec.keywords.map((keyword, i) => ({
        projectId: project.id,
        keyword,
        type: i < 5 ? 'product' : 'icp',
        approved: true,
      })),
    );
    // Watched for a while already: their first backfill is done, the steady state is what is measured.
    await db.insert(subreddits).values(
      spec.subreddits.map((name) => ({
        projectId: project.id,
        name,
        source: 'generated',
        approved: true,
        approvedAt: at,
        backfilledAt: at,
      })),
    );
    if (spec.negativeKeywords.length > 0) {
      await db
        .insert(discoveryFilters)
        .values({ projectId: project.id, negativeKeywords: spec.negativeKeywords });
    }
    projects.push({ id: project.id, spec });
  }
  return { scenario, projects };
}

async function main() {
  const clock: Clock & { t: number } = virtualClock();
  const start = clock.t;
  // The simulator's own limit is lifted for the baseline; our clients keep Reddit's budget on their side.
  const sim = await startRedditSim({ port: 0, seed: 42, now: clock.now, rateLimit: { requests: 1e9 } });
  const database = await openDatabase({ url: process.env.DATABASE_URL });
  await database.migrate();
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '3999',
    HOST: '127.0.0.1',
    PUBLIC_URL: 'http://127.0.0.1:3999',
    JWT_SECRET: 'bench-secret-that-is-long-enough-for-hs256-0123456789',
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'threadreach-bench-')),
    WEB_DIST_DIR: path.join(tmpdir(), 'threadreach-no-web'),
    LOG_LEVEL: 'silent',
    JOBS_ENABLED: 'false',
  });
  const endpoints = { apiUrl: sim.url, authUrl: sim.url };
  const ctx = await createAppContext({
    config,
    database,
    queue: null,
    logger: false,
    reddit: endpoints,
    clock,
  });
  const { db } = database;

  const { scenario, projects } = await seed(db, config, new Date(start - 3600_000));
  // Timed first, before the run's garbage piles up.
  const throughput = measureThroughput(
    projects.map((p) => rulesOf(p.id, p.spec)),
    corpusItems(scenario.subreddits, start, 24),
  );
  const ourClients: string[] = [];
  for (let i = 0; i < OUR_CREDENTIALS; i++) {
    const clientId = `bench-ours-${i + 1}`;
    await createCredential(ctx, {
      type: 'search',
      account_name: `bench_search_${i + 1}`,
      client_id: clientId,
      client_secret: `bench-secret-${i + 1}`,
      enabled: true,
    });
    ourClients.push(clientId);
  }
  const dispatcher = createDirectDispatcher();
  const baselineClient = new RedditClient(
    {
      endpoints,
      appId: ctx.reddit.appId,
      version: ctx.reddit.version,
      db,
      secrets: ctx.secrets,
      clock,
      budget: new LiftedBudget(db, clock),
    },
    {
      id: 'bench-baseline',
      clientId: 'bench-baseline',
      clientSecret: 'bench-baseline-secret',
      accountName: 'bench_baseline',
      connection: async () => ({ dispatcher, proxied: false }),
    },
  );
  const matcher = compileMatcher(projects.map((p) => rulesOf(p.id, p.spec)));
  const apiCalls = (clientIds: string[]) =>
    sim.inspect
      .requestLog()
      .filter((e) => e.surface === 'oauth' && e.clientId !== null && clientIds.includes(e.clientId));

  interface CycleRow {
    cycle: number;
    ours: Awaited<ReturnType<typeof runDiscoveryCycle>>;
    oursRequests: number;
    oursMs: number;
    baselineRequests: number;
    baselineLeads: number;
    baselineMs: number;
  }
  const rows: CycleRow[] = [];
  const baselineLeads = new Map<LeadKey, number>();
  // Cycle 0 starts both sides (our cursors, the baseline's "last cycle"); cycles 1..MINUTES are measured.
  for (let cycle = 0; cycle <= MINUTES; cycle++) {
    clock.t = start + cycle * INTERVAL_MS;
    sim.inspect.reset();
    let t0 = performance.now();
    const ours = await runDiscoveryCycle(ctx);
    const oursMs = performance.now() - t0;
    const oursRequests = apiCalls(ourClients).length;

    sim.inspect.reset();
    t0 = performance.now();
    const nowSec = Math.floor(clock.t / 1000);
    const base = await baselineCycle(baselineClient, projects, matcher, {
      afterSec: cycle === 0 ? nowSec : Math.floor((clock.t - INTERVAL_MS) / 1000),
      untilSec: nowSec,
    });
    const baselineMs = performance.now() - t0;
    const baselineRequests = apiCalls(['bench-baseline']).length;
    if (baselineRequests !== base.requests) {
      throw new Error(`baseline sent ${baselineRequests} requests, expected ${base.requests}`);
    }
    for (const [key, created] of base.leads) baselineLeads.set(key, created);
    rows.push({
      cycle,
      ours,
      oursRequests,
      oursMs,
      baselineRequests,
      baselineLeads: base.leads.size,
      baselineMs,
    });
    process.stderr.write(
      `cycle ${cycle}: ours ${oursRequests} req, ${ours.itemsRead} items, ${ours.leadsCreated} leads (${oursMs.toFixed(0)} ms); baseline ${baselineRequests} req, ${base.leads.size} leads (${baselineMs.toFixed(0)} ms)\n`,
    );
  }

  const ourLeads = await db
    .select({
      projectId: leads.projectId,
      itemName: leads.itemName,
      kind: leads.kind,
      created: leads.itemCreatedAt,
      found: leads.foundAt,
    })
    .from(leads)
    .where(
      and(
        inArray(
          leads.projectId,
          projects.map((p) => p.id),
        ),
        gt(leads.itemCreatedAt, new Date(start)),
      ),
    );
  const ourKeys = new Set(ourLeads.map((l) => `${l.projectId}|${l.itemName}`));
  const missed = [...baselineLeads.keys()].filter((k) => !ourKeys.has(k));
  const recall =
    baselineLeads.size === 0 ? NaN : (100 * (baselineLeads.size - missed.length)) / baselineLeads.size;
  const delays = ourLeads.map((l) => (l.found.getTime() - l.created.getTime()) / 1000);
  const p95 = percentile(delays, 95);

  const measured = rows.filter((r) => r.cycle > 0);
  const oursPerCycle = mean(measured.map((r) => r.oursRequests));
  const baselinePerCycle = mean(measured.map((r) => r.baselineRequests));
  const ratio = baselinePerCycle / oursPerCycle;

  await sim.close();
  await database.close();

  const subWatchers = new Map<string, number>();
  for (const p of scenario.projects)
    for (const s of p.subreddits) subWatchers.set(s, (subWatchers.get(s) ?? 0) + 1);
  const watchers = [...subWatchers.values()].sort((a, b) => b - a);
  const fmt = (n: number, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');

  console.log(`# Discovery: shared engine vs per-project keyword search\n`);
  console.log(
    `Simulator (seed 42) on loopback with a virtual clock, ${database.driver}; ${projects.length} projects of ` +
      `${scenario.projects[0]!.keywords.length} keywords over ${scenario.subreddits.length} subreddits ` +
      `(${mean(scenario.projects.map((p) => p.subreddits.length)).toFixed(1)} per project; the busiest watched by ` +
      `${watchers[0]}, ${watchers[1]} and ${watchers[2]} projects); ${MINUTES} simulated minutes, one cycle every ` +
      `${INTERVAL_MS / 1000} s after a starting cycle.\n`,
  );
  console.log(
    `- Ours: \`runDiscoveryCycle\` with ${OUR_CREDENTIALS} search credential(s) at Reddit's normal budget ` +
      `(100 requests a minute each). Requests counted by the simulator (Data API calls, not token grants).`,
  );
  console.log(
    `- Baseline: for each project, subreddit and keyword, \`/r/{sub}/search?q=<keyword>&restrict_sr=1&sort=new&t=hour&limit=100\` ` +
      `through the same Reddit client, with its budget lifted on both sides (it needs ${fmt(baselinePerCycle, 0)} requests a minute, ` +
      `${fmt(baselinePerCycle / 100, 0)} credentials' worth). Its leads: posts created since its previous cycle that the same ` +
      `compiled matcher accepts for that project. Reddit's search returns posts only, so recall is over posts.\n`,
  );
  console.log('| | ours | baseline |');
  console.log('|---|---:|---:|');
  console.log(
    `| Reddit requests per cycle (mean of ${measured.length}) | ${fmt(oursPerCycle)} | ${fmt(baselinePerCycle)} |`,
  );
  console.log(`| requests in the starting cycle | ${rows[0]!.oursRequests} | ${rows[0]!.baselineRequests} |`);
  console.log(
    `| most requests in one cycle | ${Math.max(...measured.map((r) => r.oursRequests))} | ${Math.max(...measured.map((r) => r.baselineRequests))} |`,
  );
  console.log(
    `| wall time per cycle, mean ms | ${fmt(mean(measured.map((r) => r.oursMs)), 0)} | ${fmt(mean(measured.map((r) => r.baselineMs)), 0)} |`,
  );
  console.log(
    `| leads (created after the start) | ${ourLeads.length} (${ourLeads.filter((l) => l.kind === 'post').length} posts) | ${baselineLeads.size} |`,
  );
  console.log(
    `| items read | ${measured.reduce((n, r) => n + r.ours.itemsRead, 0)} | ${measured.reduce((n, r) => n + r.baselineRequests, 0)} searches |`,
  );
  console.log(
    `| author profiles read / first backfills | ${measured.reduce((n, r) => n + r.ours.authorsEnriched, 0)} / ${measured.reduce((n, r) => n + r.ours.backfills, 0)} | |`,
  );
  console.log(
    `| gaps / missed items | ${measured.reduce((n, r) => n + r.ours.gaps, 0)} / ${measured.reduce((n, r) => n + r.ours.missedItems, 0)} | |`,
  );
  console.log('');
  console.log(`- Ratio of requests per cycle: **${fmt(ratio, 0)}x** (target at least ${TARGET.ratio}x).`);
  console.log(
    `- Recall of the baseline's ${baselineLeads.size} leads: **${fmt(recall, 2)}%** (${missed.length} missed; target at least ${TARGET.recall}%).`,
  );
  console.log(
    `- Time from posting (simulator clock, whole seconds as Reddit gives them) to our stored lead over ${delays.length} leads: ` +
      `p50 ${fmt(percentile(delays, 50), 0)} s, **p95 ${fmt(p95, 0)} s**, max ${fmt(Math.max(...delays), 0)} s (target p95 at most ${TARGET.p95Seconds} s).`,
  );
  console.log(
    `- Matcher over the simulator's last 24 h of these subreddits (${throughput.items} posts and comments, ${fmt(throughput.megabytes, 2)} MB, ` +
      `every item checked for every project watching its subreddit): compiled matcher **${fmt(throughput.oursMBps)} MB/s**, naive ` +
      `per-keyword \`includes\` loop ${fmt(throughput.naiveMBps)} MB/s (${fmt(throughput.oursMBps / throughput.naiveMBps)}x), median of 5 ` +
      `rounds; compiling ${fmt(throughput.compileMs, 0)} ms. Project leads found: ${throughput.oursLeads} whole-word vs ` +
      `${throughput.naiveLeads} substring.`,
  );
  if (missed.length > 0) console.log(`- First misses: ${missed.slice(0, 5).join(', ')}`);
  console.log(
    '\n| cycle | ours req | groups | items read | leads | gaps | authors read | backfills | baseline req | baseline leads |',
  );
  console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    console.log(
      `| ${r.cycle} | ${r.oursRequests} | ${r.ours.groups} | ${r.ours.itemsRead} | ${r.ours.leadsCreated} | ${r.ours.gaps} | ${r.ours.authorsEnriched} | ${r.ours.backfills} | ${r.baselineRequests} | ${r.baselineLeads} |`,
    );
  }
  console.log('');
  console.log(
    `discovery: ours ${fmt(oursPerCycle)} req/cycle, baseline ${fmt(baselinePerCycle, 0)} req/cycle, ratio ${fmt(ratio, 0)}, ` +
      `recall ${fmt(recall, 2)}%, p95 freshness ${fmt(p95, 0)} s, matcher ${fmt(throughput.oursMBps)} MB/s`,
  );
  if (!(ratio >= TARGET.ratio && recall >= TARGET.recall && p95 <= TARGET.p95Seconds)) process.exitCode = 1;
}

void main();
