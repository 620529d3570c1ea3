import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startRedditSim, type RedditSim } from '@threadreach/reddit-sim';
import { and, asc, eq } from 'drizzle-orm';
import pg from 'pg';
import type { Clock } from '../../clock';
import type { AppContext } from '../../context';
import { openDatabase, type Database, type Db } from '../../db/client';
import type { Enqueued } from '../../jobs/queue.test-support';
import { recordingQueue } from '../../jobs/queue.test-support';
import { fixedClock } from '../../test/clock.test-support';
import { buildProject, type TestUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { redditAccounts, refreshTokenRef, type RedditAccountRow } from '../accounts';
import { createCredential, redditClientFor } from '../credentials';
import { dmMessages, type DmMessageRow, type DmState } from '../dms/dms.table';
import type { ProjectRow } from '../projects/projects.table';
import { reconcileAccount, sweepSends } from './reconcile.service';
import { INTERRUPTED_AFTER_MS } from './send-attempt';
import type { OnSendStep } from './send-attempt';
import { sendQueuedDm } from './send-queued';

const DAY_MS = 86_400_000;
/** Monday 5 January 2026, 10:00 UTC. */
export const T0 = Date.UTC(2026, 0, 5, 10);
const REDIRECT_URI = 'http://localhost:5173/reddit/callback';
const UA = 'threadreach-tests/1.0 (by /u/threadreach_send)';

export interface SendCredential {
  id: string;
  clientId: string;
  clientSecret: string;
}

/** The app on a database of its own, the simulator on the same clock, a send credential, recorded jobs. */
export interface SendingRig {
  t: TestApp;
  ctx: AppContext;
  db: Db;
  clock: Clock & { t: number };
  sim: RedditSim;
  credential: SendCredential;
  jobs: Enqueued[];
  close(): Promise<void>;
}

/**
 * On PostgreSQL the rig has a database of its own: the sweep reads every project, so on a shared
 * database it would touch other suites' DMs.
 */
export async function startSendingRig(at = T0): Promise<SendingRig> {
  const clock = fixedClock(at);
  const queue = recordingQueue();
  const shared = process.env.DATABASE_URL;
  const place = shared ? await isolatedPlace() : null;
  let t: TestApp;
  try {
    if (place) process.env.DATABASE_URL = place.childEnv.DATABASE_URL;
    t = await createTestApp({ reddit: { clock }, queue: queue.starter });
  } finally {
    if (place) process.env.DATABASE_URL = shared;
  }
  const credential = await addSendCredential(t.ctx);
  return {
    t,
    ctx: t.ctx,
    db: t.ctx.db,
    clock,
    sim: t.sim!,
    credential,
    jobs: queue.jobs,
    async close() {
      await t.close();
      await place?.drop();
    },
  };
}

export async function addSendCredential(ctx: AppContext): Promise<SendCredential> {
  const clientId = `send-${randomUUID().slice(0, 8)}`;
  const clientSecret = `secret-${randomUUID()}`;
  const row = await createCredential(ctx, {
    type: 'send',
    account_name: 'threadreach_send',
    client_id: clientId,
    client_secret: clientSecret,
    enabled: true,
  });
  return { id: row.id, clientId, clientSecret };
}

export interface AccountSpec {
  /** A login account of the simulator (demo_founder, growth_marketer, fresh_account, suspended_seller). */
  username?: string;
  /** Age we know of it; the simulator's own may differ. */
  ageDays?: number;
  dailyMessageLimit?: number;
  delayRangeMin?: number;
  delayRangeMax?: number;
  workingDays?: number[];
  workingHoursStart?: number;
  workingHoursEnd?: number;
  timezone?: string;
  /** Connected without a grant (Auth Required). */
  withoutGrant?: boolean;
}

/**
 * A Reddit account connected to the project as the accounts feature does it: signed in on the simulator
 * through the send credential, its refresh token encrypted on the row. Sends any day, any hour unless told.
 */
export async function connectAccount(
  ctx: AppContext,
  sim: RedditSim,
  credential: SendCredential,
  project: Pick<ProjectRow, 'id' | 'userId'>,
  spec: AccountSpec = {},
): Promise<RedditAccountRow> {
  const username = spec.username ?? 'demo_founder';
  const id = randomUUID();
  let refreshToken: string | null = null;
  if (!spec.withoutGrant) {
    const form = new URLSearchParams({
      client_id: credential.clientId,
      response_type: 'code',
      state: 'st',
      redirect_uri: REDIRECT_URI,
      duration: 'permanent',
      scope: 'identity read history privatemessages',
      username,
      authorize: 'Approve',
    });
    const decision = await fetch(`${sim.url}/api/v1/authorize`, {
      method: 'POST',
      headers: { 'user-agent': UA, 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
      redirect: 'manual',
    });
    const code = new URL(decision.headers.get('location') ?? '').searchParams.get('code');
    if (!code) throw new Error(`the simulator did not sign ${username} in`);
    const client = await redditClientFor(ctx, credential.id);
    refreshToken = (await client.exchangeCode(code, REDIRECT_URI)).refreshToken;
  }
  const now = ctx.clock.now();
  const [row] = await ctx.db
    .insert(redditAccounts)
    .values({
      id,
      projectId: project.id,
      ownerUserId: project.userId,
      credentialId: credential.id,
      redditUsername: username,
      accountCreatedAt: new Date(now - (spec.ageDays ?? 400) * DAY_MS),
      refreshTokenCiphertext: refreshToken ? ctx.secrets.encrypt(refreshToken, refreshTokenRef(id)) : null,
      authStatus: spec.withoutGrant ? 'expired' : 'valid',
      dailyMessageLimit: spec.dailyMessageLimit ?? 10,
      delayRangeMin: spec.delayRangeMin ?? 30,
      delayRangeMax: spec.delayRangeMax ?? 120,
      workingDays: spec.workingDays ?? [1, 2, 3, 4, 5, 6, 7],
      workingHoursStart: spec.workingHoursStart ?? 0,
      workingHoursEnd: spec.workingHoursEnd ?? 0,
      timezone: spec.timezone ?? 'UTC',
      createdAt: new Date(now),
      updatedAt: new Date(now),
    })
    .returning();
  return row!;
}

export interface DmSpec {
  recipient: string;
  state?: DmState;
  body?: string;
  subject?: string;
  accountId?: string | null;
  scheduledFor?: Date | null;
  repliedAt?: Date | null;
  /** When it was written (a day before T0 unless given): without a lead, its expiry counts from then. */
  createdAt?: Date;
}

/** An approved DM of the project to `recipient`, with a body of its own. */
export async function buildDm(
  db: Db,
  project: Pick<ProjectRow, 'id' | 'userId'>,
  spec: DmSpec,
): Promise<DmMessageRow> {
  const body =
    spec.body ?? `Hi ${spec.recipient}, saw your post and thought this could help. (${randomUUID()})`;
  const now = spec.createdAt ?? new Date(T0 - DAY_MS);
  const [row] = await db
    .insert(dmMessages)
    .values({
      projectId: project.id,
      ownerUserId: project.userId,
      sourceType: 'post',
      redditPostId: `t3_${randomUUID().replace(/-/g, '').slice(0, 8)}`,
      postTitle: 'Looking for a CRM',
      subreddit: 'SaaS',
      matchedKeywords: ['crm'],
      recipientUsername: spec.recipient,
      recipientKey: spec.recipient.toLowerCase(),
      subject: spec.subject ?? 'Your post about CRMs',
      messageContent: body,
      originalContent: body,
      state: spec.state ?? 'approved',
      accountId: spec.accountId ?? null,
      scheduledFor: spec.scheduledFor ?? null,
      repliedAt: spec.repliedAt ?? null,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return row!;
}

/**
 * What the workers do for one project, on a standing clock: every due send-dm job runs at its scheduled
 * instant, in time order, the clock moved to each. Returns how many runs it took.
 */
export async function runQueuedSends(
  ctx: AppContext,
  clock: { t: number },
  projectId: string,
  options: { random: () => number; onStep?: OnSendStep; until?: number },
): Promise<number> {
  let runs = 0;
  for (; runs < 2000; runs++) {
    const [due] = await ctx.db
      .select()
      .from(dmMessages)
      .where(and(eq(dmMessages.projectId, projectId), eq(dmMessages.state, 'queued')))
      .orderBy(asc(dmMessages.scheduledFor), asc(dmMessages.id))
      .limit(1);
    if (!due || due.scheduledFor!.getTime() > (options.until ?? Infinity)) break;
    clock.t = Math.max(clock.t, due.scheduledFor!.getTime());
    await sendQueuedDm(ctx, { projectId, dmId: due.id }, options);
  }
  return runs;
}

export interface Recovery {
  rounds: number;
  /** DMs of unknown outcome found in their account's sent messages. */
  confirmed: number;
  /** DMs of unknown outcome not delivered, queued to be sent again. */
  requeued: number;
}

/**
 * Recovery as the workers do it after a crash, round by round on a standing clock: the sweep (claims
 * left sending become unknown), each account's reconcile, then the due sends. Ends when no DM of the
 * given projects is queued, sending or unknown.
 */
export async function recoverSends(
  ctx: AppContext,
  clock: { t: number },
  projectIds: string | string[],
  random: () => number,
): Promise<Recovery> {
  const ids = [projectIds].flat();
  const recovery: Recovery = { rounds: 0, confirmed: 0, requeued: 0 };
  for (; recovery.rounds < 20; recovery.rounds++) {
    const open = [];
    for (const id of ids) open.push(...(await dmsOf(ctx.db, id)));
    if (!open.some((d) => ['queued', 'sending', 'unknown'].includes(d.state))) return recovery;
    clock.t += INTERRUPTED_AFTER_MS + 60_000;
    const sweep = await sweepSends(ctx);
    for (const account of sweep.accounts) {
      const report = await reconcileAccount(ctx, account, { random });
      recovery.confirmed += report.confirmed;
      recovery.requeued += report.requeued;
    }
    for (const id of ids) await runQueuedSends(ctx, clock, id, { random });
  }
  throw new Error(`the DMs of ${ids.join(', ')} did not settle`);
}

/** A project of a workspace of its own (or of `owner`). */
export async function buildSendingProject(rig: SendingRig, owner?: TestUser) {
  return buildProject(rig.db, rig.t.config, owner ? { owner } : {});
}

export async function dmsOf(db: Db, projectId: string): Promise<DmMessageRow[]> {
  return db
    .select()
    .from(dmMessages)
    .where(eq(dmMessages.projectId, projectId))
    .orderBy(asc(dmMessages.createdAt), asc(dmMessages.id));
}

export async function dmById(db: Db, id: string): Promise<DmMessageRow> {
  const [row] = await db.select().from(dmMessages).where(eq(dmMessages.id, id));
  return row!;
}

export async function accountById(db: Db, id: string): Promise<RedditAccountRow> {
  const [row] = await db
    .select()
    .from(redditAccounts)
    .where(and(eq(redditAccounts.id, id)));
  return row!;
}

/** Where one copy of the world lives: a PGlite directory, or a PostgreSQL database of its own. */
export interface Place {
  open(): Promise<Database>;
  /** What a child process needs to open the same database. */
  childEnv: Record<string, string>;
  drop(): Promise<void>;
}

/**
 * A database for one test file that processes other than this one may open too (and that sweeps of
 * other suites never see): with DATABASE_URL a fresh database on that server, otherwise a PGlite
 * directory (opened by one process at a time).
 */
export async function isolatedPlace(): Promise<Place> {
  const base = process.env.DATABASE_URL;
  if (base) {
    const name = `sending_${randomBytes(6).toString('hex')}`;
    const admin = async (statement: string) => {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      try {
        await client.query(statement);
      } finally {
        await client.end();
      }
    };
    await admin(`CREATE DATABASE "${name}"`);
    const url = new URL(base);
    url.pathname = `/${name}`;
    const first = await openDatabase({ url: url.toString() });
    await first.migrate();
    await first.close();
    return {
      open: () => openDatabase({ url: url.toString() }),
      childEnv: { DATABASE_URL: url.toString() },
      // Never WITH (FORCE): a closing pool's connection killed under it is an uncaught error here.
      drop: () => admin(`DROP DATABASE IF EXISTS "${name}"`).catch(() => undefined),
    };
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'threadreach-sending-db-'));
  return {
    async open() {
      const database = await openDatabase({ dataDir: dir });
      await database.migrate();
      return database;
    },
    childEnv: { CRASH_DB_DIR: dir },
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

export interface RecipientPool {
  /** People of the simulator who take DMs. */
  accepting: string[];
  /** People who do not accept DMs (NOT_WHITELISTED_BY_USER_MESSAGE). */
  refusing: string[];
}

let pool: Promise<RecipientPool> | null = null;

/**
 * Authors of the simulator's corpus (seed 42), sorted by whether they take DMs: found once per test file
 * on a throwaway simulator with the same seed, so the test's own simulator receives only the test's DMs.
 */
export function recipientPool(): Promise<RecipientPool> {
  pool ??= probeRecipients();
  return pool;
}

async function probeRecipients(): Promise<RecipientPool> {
  const probe = await startRedditSim({ port: 0, seed: 42, startTime: T0 });
  const post = (path: string, form: Record<string, string>, auth: string) =>
    fetch(`${probe.url}${path}`, {
      method: 'POST',
      headers: { 'user-agent': UA, 'content-type': 'application/x-www-form-urlencoded', authorization: auth },
      body: new URLSearchParams(form).toString(),
      redirect: 'manual',
    });
  const basic = `Basic ${Buffer.from('probe:probe-secret').toString('base64')}`;
  try {
    const app = (await (
      await post('/api/v1/access_token', { grant_type: 'client_credentials' }, basic)
    ).json()) as { access_token: string };
    const authors = new Set<string>();
    for (const path of ['/r/SaaS/new', '/r/startups/new', '/r/smallbusiness/new', '/r/marketing/comments']) {
      const res = await fetch(`${probe.url}${path}?limit=100&raw_json=1`, {
        headers: { 'user-agent': UA, authorization: `bearer ${app.access_token}` },
      });
      const listing = (await res.json()) as { data: { children: { data: { author: string } }[] } };
      for (const c of listing.data.children)
        if (!/deleted|automoderator/i.test(c.data.author)) authors.add(c.data.author);
    }
    const userToken = async () => {
      const decision = await post(
        '/api/v1/authorize',
        {
          client_id: 'probe',
          response_type: 'code',
          state: 's',
          redirect_uri: REDIRECT_URI,
          duration: 'temporary',
          scope: 'privatemessages',
          username: 'growth_marketer',
          authorize: 'Approve',
        },
        '',
      );
      const code = new URL(decision.headers.get('location') ?? '').searchParams.get('code') ?? '';
      const grant = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI };
      const token = (await (await post('/api/v1/access_token', grant, basic)).json()) as {
        access_token: string;
      };
      return `bearer ${token.access_token}`;
    };
    let bearer = await userToken();
    const result: RecipientPool = { accepting: [], refusing: [] };
    for (const name of [...authors].sort()) {
      for (;;) {
        const res = await post(
          '/api/compose',
          { api_type: 'json', to: name, subject: 'probe', text: 'probe' },
          bearer,
        );
        const body = (await res.json()) as { json?: { errors: string[][] } };
        if (!body.json) throw new Error(`probe compose answered ${res.status}`);
        const error = body.json.errors[0]?.[0];
        if (error === 'RATELIMIT') {
          // The sender's hourly allowance is spent: an hour later, with a token of that hour.
          probe.advance(3_600_000);
          bearer = await userToken();
          continue;
        }
        if (!error) result.accepting.push(name);
        else if (error === 'NOT_WHITELISTED_BY_USER_MESSAGE') result.refusing.push(name);
        break;
      }
    }
    return result;
  } finally {
    await probe.close();
  }
}
