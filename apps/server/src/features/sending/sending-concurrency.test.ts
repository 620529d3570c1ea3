/**
 * Concurrent senders on one account and on one person. On PGlite the single connection runs one
 * transaction at a time, so the claims are serialized by the engine; under `npm run test:db`
 * (DATABASE_URL) they race for real on a pool of 10 connections, and the account row lock, the lock on
 * the Reddit account's name in the workspace and the workspace-wide unique index are what keep the counts. "Across a PostgreSQL restart" is simulated by
 * closing the pool (every connection ends) and opening a new one midway, as a restarted server would:
 * the quota is counted from the DMs in the database, never from memory. (A PGlite directory closed and
 * opened again stands in for it without DATABASE_URL.)
 */
import { randomBytes } from 'node:crypto';
import { startRedditSim, type RedditSim } from '@threadreach/reddit-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../context';
import type { Database } from '../../db/client';
import { fixedClock } from '../../test/clock.test-support';
import { buildProject, buildUser } from '../../test/factories';
import type { DmMessageRow } from '../dms/dms.table';
import { seededRandom } from './pacing';
import { crashConfig, crashContext } from './sending-crash.test-support';
import { sendDmNow } from './sending.service';
import {
  addSendCredential,
  buildDm,
  connectAccount,
  dmsOf,
  isolatedPlace,
  recipientPool,
  recoverSends,
  T0,
  type Place,
  type RecipientPool,
} from './sending.test-support';

const config = crashConfig({
  JWT_SECRET: 'send-concurrency-secret-that-is-long-enough',
  SECRETS_KEYS: `k1:${randomBytes(32).toString('base64')}`,
});
const clock = fixedClock(T0);
let sim: RedditSim;
let people: RecipientPool;
let place: Place;
let database: Database;
let ctx: AppContext;

beforeAll(async () => {
  sim = await startRedditSim({ port: 0, seed: 42, now: () => clock.t });
  people = await recipientPool();
  place = await isolatedPlace();
  database = await place.open();
  ctx = await crashContext(config, database, sim.url, clock);
}, 120_000);
afterAll(async () => {
  await database?.close();
  await sim?.close();
  await place?.drop();
});

/** Sends all at once; returns each sender's outcome: the state, or the refusal's code. */
async function sendAtOnce(c: AppContext, projectId: string, dms: DmMessageRow[]): Promise<string[]> {
  const results = await Promise.allSettled(dms.map((dm) => sendDmNow(c, projectId, { dmId: dm.id })));
  return results.map((r) =>
    r.status === 'fulfilled' ? r.value.state : ((r.reason as { code?: string }).code ?? String(r.reason)),
  );
}

function tally(outcomes: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const o of outcomes) counts[o] = (counts[o] ?? 0) + 1;
  return counts;
}

describe('concurrent senders', () => {
  it('send exactly 20 of 50 at once against a daily limit of 20, also across a restart of the pool', async () => {
    const project = await buildProject(ctx.db, config);
    await connectAccount(ctx, sim, await addSendCredential(ctx), project, {
      username: 'growth_marketer',
      dailyMessageLimit: 20,
    });
    const dms: DmMessageRow[] = [];
    for (let i = 0; i < 50; i++)
      dms.push(await buildDm(ctx.db, project, { recipient: people.accepting[i]! }));

    const before = await sendAtOnce(ctx, project.id, dms.slice(0, 12));
    expect(tally(before)).toEqual({ sent: 12 });
    // The restart: every connection closes; a new pool (a new process) carries on.
    await database.close();
    database = await place.open();
    ctx = await crashContext(config, database, sim.url, clock);
    const after = await sendAtOnce(ctx, project.id, dms.slice(12));
    // 8 claims fit; the rest are refused. A compose may meet a connection the simulator closed while the
    // pool restarted (ECONNRESET): its outcome is unknown, and recovery settles it from the sent messages.
    const counts = tally(after);
    expect((counts.sent ?? 0) + (counts.unknown ?? 0)).toBe(8);
    expect(counts.daily_limit_reached).toBe(30);
    const recovery = await recoverSends(ctx, clock, project.id, seededRandom(5));

    const rows = await dmsOf(ctx.db, project.id);
    expect(rows.filter((r) => r.state === 'sent')).toHaveLength(20);
    expect(rows.filter((r) => r.state === 'approved')).toHaveLength(30);
    const received = sim.inspect.messages({ from: 'growth_marketer' });
    const bodies = new Set(dms.map((d) => d.messageContent));
    expect(received.filter((m) => bodies.has(m.body))).toHaveLength(20);
    console.info(
      `concurrency (${database.driver}): 50 senders at once, limit 20: ${JSON.stringify(tally([...before, ...after]))}; ` +
        `${received.filter((m) => bodies.has(m.body)).length} delivered (${recovery.confirmed} confirmed, ` +
        `${recovery.requeued} sent again by recovery)`,
    );
  }, 300_000);

  it("keeps one Reddit account's daily limit across its connections to several projects", async () => {
    const owner = await buildUser(ctx.db, config);
    const credential = await addSendCredential(ctx);
    const sends: { projectId: string; dmId: string }[] = [];
    for (let i = 0; i < 4; i++) {
      const project = await buildProject(ctx.db, config, { owner });
      await connectAccount(ctx, sim, credential, project, {
        username: 'growth_marketer',
        dailyMessageLimit: 3,
      });
      for (let j = 0; j < 3; j++) {
        const dm = await buildDm(ctx.db, project, { recipient: people.accepting[300 + i * 3 + j]! });
        sends.push({ projectId: project.id, dmId: dm.id });
      }
    }
    const results = await Promise.allSettled(sends.map((s) => sendDmNow(ctx, s.projectId, { dmId: s.dmId })));
    const outcomes = results.map((r) =>
      r.status === 'fulfilled' ? r.value.state : ((r.reason as { code?: string }).code ?? String(r.reason)),
    );
    // Each project's connection alone would allow 3, 12 in all; the account sends 3.
    expect(tally(outcomes)).toEqual({ sent: 3, daily_limit_reached: 9 });
    console.info(
      `concurrency (${database.driver}): 12 senders on 4 connections of one account, limit 3: ${JSON.stringify(tally(outcomes))}`,
    );
  }, 300_000);

  it('lets one of 10 racing senders contact a person; the others fail as already contacted, never a 500', async () => {
    const owner = await buildUser(ctx.db, config);
    const credential = await addSendCredential(ctx);
    const to = people.accepting[200]!;
    const sends = [];
    for (let i = 0; i < 10; i++) {
      const project = await buildProject(ctx.db, config, { owner });
      await connectAccount(ctx, sim, credential, project, {
        username: i % 2 ? 'demo_founder' : 'growth_marketer',
      });
      // The same person, spelled as Reddit does or not.
      const dm = await buildDm(ctx.db, project, { recipient: i % 3 ? to : to.toUpperCase() });
      sends.push({ project, dm });
    }
    const results = await Promise.allSettled(
      sends.map((s) => sendDmNow(ctx, s.project.id, { dmId: s.dm.id })),
    );
    const outcomes = results.map((r) =>
      r.status === 'fulfilled'
        ? r.value.state
        : `${(r.reason as { statusCode?: number }).statusCode} ${(r.reason as { code?: string }).code}`,
    );
    expect(tally(outcomes)).toEqual({ sent: 1, '409 already_contacted': 9 });
    expect(sim.inspect.messages({ to })).toHaveLength(1);
    console.info(
      `concurrency (${database.driver}): 10 senders to one person: ${JSON.stringify(tally(outcomes))}`,
    );
  }, 300_000);
});
