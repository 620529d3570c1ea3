import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startRedditSim, type RedditSim } from '@threadreach/reddit-sim';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../db/client';
import { insertProject } from '../projects/projects.repository';
import { insertUser } from '../users/users.repository';
import { createCredential } from '../credentials';
import { leads, profiles } from '../leads/leads.table';
import { projects } from '../projects/projects.table';
import { subreddits } from '../subreddits/subreddits.table';
import { keywords } from '../keywords/keywords.table';
import { redditAuthors } from './discovery.table';
import { crashConfig, crashContext } from './discovery-crash.test-support';
import { runDiscoveryCycle } from './discovery-cycle.service';
import { cursorsOf, isolatedDatabaseUrl } from './discovery.test-support';

const T0 = Date.UTC(2026, 0, 5, 12);
const T1 = T0 + 4 * 3_600_000;
const CHILD = path.join(import.meta.dirname, 'discovery-crash.test-support.ts');
const env = {
  JWT_SECRET: 'crash-test-secret-that-is-long-enough-for-hs256',
  SECRETS_KEYS: `k1:${randomBytes(32).toString('base64')}`,
};
const config = crashConfig(env);

/** Where one copy of the world lives: a PGlite directory, or a database of its own on PostgreSQL. */
interface Place {
  open(): Promise<Database>;
  childEnv: Record<string, string>;
  drop(): Promise<void>;
}

async function place(): Promise<Place> {
  const isolated = await isolatedDatabaseUrl();
  if (isolated) {
    return {
      open: () => openDatabase({ url: isolated.url }),
      childEnv: { DATABASE_URL: isolated.url },
      drop: () => isolated.drop(),
    };
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'threadreach-crash-db-'));
  return {
    async open() {
      const database = await openDatabase({ dataDir: dir });
      await database.migrate();
      return database;
    },
    childEnv: { CRASH_DB_DIR: dir },
    drop: async () => {},
  };
}

let simNow = T0;
let sim: RedditSim;
const places: Place[] = [];

beforeAll(async () => {
  sim = await startRedditSim({ port: 0, seed: 42, now: () => simNow });
});
afterAll(async () => {
  await sim?.close();
  for (const p of places) await p.drop();
});

/**
 * The same world in each place: projects of several tenants (keywords, exclusions, every item of a
 * subreddit), a cycle at T0 that places the cursors, then a subreddit approved whose backfill is due.
 */
async function seed(p: Place): Promise<void> {
  const database = await p.open();
  try {
    simNow = T0;
    const ctx = await crashContext(config, database, sim.url, T0);
    await createCredential(ctx, {
      type: 'search',
      account_name: 'threadreach_search',
      client_id: 'crash-search',
      client_secret: 'crash-secret',
      enabled: true,
    });
    const specs = [
      { name: 'keywords', kw: ['customers', 'users', 'tool'], subs: ['SaaS', 'startups', 'smallbusiness'] },
      { name: 'everything', kw: [], subs: ['SaaS'], all: true },
      { name: 'crm', kw: ['CRM', 'help desk'], subs: ['startups', 'marketing'] },
    ];
    for (const [i, s] of specs.entries()) {
      const user = await insertUser(database.db, {
        email: `crash-${i}@test.local`,
        roles: ['USER'],
        profilesLimit: 3,
      });
      const project = await insertProject(database.db, { userId: user.id, name: s.name, description: null });
      if (s.all)
        await database.db.update(projects).set({ withoutKeywords: true }).where(eq(projects.id, project.id));
      if (s.kw.length) {
        await database.db
          .insert(keywords)
          .values(s.kw.map((k) => ({ projectId: project.id, keyword: k, type: 'product', approved: true })));
      }
      await database.db.insert(subreddits).values(
        s.subs.map((n) => ({
          projectId: project.id,
          name: n,
          source: 'manual',
          approved: true,
          approvedAt: new Date(T0),
          backfilledAt: new Date(T0),
        })),
      );
    }
    await runDiscoveryCycle(ctx);
    const [crm] = await database.db.select().from(projects).where(eq(projects.name, 'crm'));
    await database.db.insert(subreddits).values({
      projectId: crm!.id,
      name: 'sysadmin',
      source: 'manual',
      approved: true,
      approvedAt: new Date(T0),
    });
  } finally {
    await database.close();
  }
}

/** Runs the cycle at T1 in a child process; with `killAfter`, SIGKILLs it after that many commits. */
function runChild(
  p: Place,
  killAfter?: number,
): Promise<{ commits: number; killed: boolean; report: unknown }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
      cwd: path.resolve(import.meta.dirname, '../../..'),
      env: { ...process.env, ...env, ...p.childEnv, CRASH_SIM_URL: sim.url, CRASH_NOW_MS: String(T1) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let commits = 0;
    let killed = false;
    let report: unknown = null;
    let buffer = '';
    let errors = '';
    child.stderr.on('data', (d: Buffer) => (errors += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      buffer += d.toString();
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        if (line.startsWith('commit ')) commits++;
        if (line.startsWith('report ')) report = JSON.parse(line.slice(7));
        if (killAfter !== undefined && commits >= killAfter && !killed) {
          killed = true;
          child.kill('SIGKILL');
        }
      }
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (killed && signal === 'SIGKILL') return resolve({ commits, killed, report });
      if (code !== 0) return reject(new Error(`cycle process failed (${code ?? signal}): ${errors}`));
      resolve({ commits, killed, report });
    });
  });
}

/** Leads, people, cursors and cached authors, keyed by what is the same in both places. */
async function outcome(p: Place) {
  const database = await p.open();
  try {
    const db = database.db;
    const leadRows = await db
      .select({ project: projects.name, lead: leads })
      .from(leads)
      .innerJoin(projects, eq(projects.id, leads.projectId));
    const people = await db
      .select({ project: projects.name, profile: profiles })
      .from(profiles)
      .innerJoin(projects, eq(projects.id, profiles.projectId));
    return {
      leads: leadRows
        .map(({ project, lead: l }) =>
          [
            project,
            l.itemName,
            l.kind,
            l.author,
            l.matchedKeywords.join('|'),
            l.intentScore,
            l.foundAt.getTime(),
          ].join(' '),
        )
        .sort(),
      profiles: people
        .map(({ project, profile: x }) =>
          [project, x.redditUsername, [...x.matchedKeywords].sort().join('|'), x.intentScore].join(' '),
        )
        .sort(),
      cursors: (await cursorsOf(db)).map((c) => ({
        groupNo: c.groupNo,
        kind: c.kind,
        beforeName: c.beforeName,
        newestCreatedAt: c.newestCreatedAt?.getTime(),
        missedItems: c.missedItems,
      })),
      authors: (await db.select({ name: redditAuthors.nameLower }).from(redditAuthors))
        .map((a) => a.name)
        .sort(),
      backfilled: (await db.select().from(subreddits)).filter((s) => s.backfilledAt === null).length,
    };
  } finally {
    await database.close();
  }
}

describe('a cycle killed with SIGKILL', () => {
  it('loses no lead and duplicates none once it is run again', async () => {
    const reference = await place();
    const crashed = await place();
    places.push(reference, crashed);
    await seed(reference);
    await seed(crashed);

    // The uninterrupted run, in this process.
    simNow = T1;
    const database = await reference.open();
    const ref = await runDiscoveryCycle(await crashContext(config, database, sim.url, T1));
    await database.close();
    expect(ref.complete).toBe(true);
    expect(ref.leadsCreated).toBeGreaterThan(20);
    expect(ref.gaps).toBeGreaterThan(0);
    expect(ref.backfills).toBe(1);

    // Slow answers, so each kill lands while a read is on its way; then killed twice, at other points.
    const slow = [sim.faults.add({ kind: 'latency', ms: 150, path: '/r/*' })];
    slow.push(sim.faults.add({ kind: 'latency', ms: 150, path: '/user/*' }));
    const want = await outcome(reference);
    const first = await runChild(crashed, 3);
    expect(first.killed).toBe(true);
    // Killed in the middle: some pages were written, not all.
    const partial = await outcome(crashed);
    expect(partial.leads.length).toBeLessThan(want.leads.length);
    expect(partial.cursors).not.toEqual(want.cursors);
    const second = await runChild(crashed, 6);
    expect(second.killed).toBe(true);
    for (const id of slow) sim.faults.remove(id);
    // The restart: a fresh connection to what the killed processes left.
    const reopened = await crashed.open();
    const last = await runDiscoveryCycle(await crashContext(config, reopened, sim.url, T1));
    await reopened.close();
    expect(last.complete).toBe(true);

    const got = await outcome(crashed);
    expect(got.leads.length).toBe(want.leads.length);
    expect(got.leads).toEqual(want.leads);
    expect(got.profiles).toEqual(want.profiles);
    expect(got.cursors).toEqual(want.cursors);
    expect(got.backfilled).toBe(0);
    expect(want.backfilled).toBe(0);
    // A killed run may have read a few more authors before dying; none is read twice or lost.
    expect(got.authors).toEqual(expect.arrayContaining(want.authors));
    // Child processes start a TypeScript runtime and open the database each time.
  }, 240_000);
});
