import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../context';
import { fixedClock } from '../../test/clock.test-support';
import { buildProject } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { redditItems } from '../discovery/discovery.table';
import { leads, profiles } from './leads.table';
import { buildItem, buildLead, buildProfile, redditName } from './leads.test-support';
import { pruneLeadsJob } from './prune-leads.job';
import { pruneExpiredLeads } from './retention.service';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ env: { LEAD_RETENTION_DAYS: '90' } });
});
afterAll(() => t.close());

const DAY_MS = 86_400_000;
// Long before anything other suites store: on PostgreSQL they share this database, and pruning is global.
const NOW = Date.parse('2001-06-01T00:00:00Z');
const daysAgo = (days: number) => new Date(NOW - days * DAY_MS);
const ctxNow = (): AppContext => ({ ...t.ctx, clock: fixedClock(NOW) });

async function leadsLeft(rows: { id: string }[]) {
  const ids = rows.map((r) => r.id);
  const found = await t.ctx.db.select({ id: leads.id }).from(leads).where(inArray(leads.id, ids));
  return new Set(found.map((r) => r.id));
}

async function profilesLeft(rows: { id: string }[]) {
  const ids = rows.map((r) => r.id);
  const found = await t.ctx.db.select({ id: profiles.id }).from(profiles).where(inArray(profiles.id, ids));
  return new Set(found.map((r) => r.id));
}

async function itemExists(name: string) {
  return (await t.ctx.db.select().from(redditItems).where(eq(redditItems.name, name))).length > 0;
}

describe('lead retention', () => {
  it('prunes leads found before LEAD_RETENTION_DAYS, dismissed or not, then what is left without a lead', async () => {
    const a = await buildProject(t.ctx.db, t.config);
    const b = await buildProject(t.ctx.db, t.config);
    const alice = redditName('alice');
    const bob = redditName('bob');
    const old = { itemCreatedAt: daysAgo(120), foundAt: daysAgo(100) };
    const oldItem = (author: string) =>
      buildItem(t.ctx.db, { author, createdAt: daysAgo(120), fetchedAt: daysAgo(100) });

    // Alice's only lead in A is old: it goes, and so does her profile in A.
    const sharedItem = await oldItem(alice);
    const aliceOld = await buildLead(t.ctx.db, a.id, { ...old, item: sharedItem });
    const aliceInA = await buildProfile(t.ctx.db, a.id, { redditUsername: alice, lastFoundAt: daysAgo(100) });
    // B found the same item recently: B's lead, B's profile and the shared item stay.
    const aliceInB = await buildLead(t.ctx.db, b.id, { item: sharedItem, foundAt: daysAgo(10) });
    const aliceProfileB = await buildProfile(t.ctx.db, b.id, {
      redditUsername: alice,
      lastFoundAt: daysAgo(10),
    });
    // Bob has an old dismissed lead (a tombstone: it goes too) and a recent one: his profile stays.
    const bobTombstone = await buildLead(t.ctx.db, a.id, {
      ...old,
      item: await oldItem(bob),
      dismissedAt: daysAgo(95),
    });
    const bobRecent = await buildLead(t.ctx.db, a.id, { author: bob, foundAt: daysAgo(1) });
    const bobInA = await buildProfile(t.ctx.db, a.id, { redditUsername: bob, lastFoundAt: daysAgo(1) });
    // More old leads than one batch holds.
    const manyOld = [];
    for (let i = 0; i < 5; i++)
      manyOld.push(await buildLead(t.ctx.db, a.id, { ...old, item: await oldItem(bob) }));
    // Just inside the window.
    const edge = await buildLead(t.ctx.db, a.id, { itemCreatedAt: daysAgo(100), foundAt: daysAgo(89) });
    // Items no lead points at: an old one goes; one discovery read within the day stays for the next run.
    const orphan = await buildItem(t.ctx.db, { createdAt: daysAgo(200), fetchedAt: daysAgo(150) });
    const justRead = await buildItem(t.ctx.db, { createdAt: daysAgo(200), fetchedAt: daysAgo(0.5) });

    const report = await pruneExpiredLeads(ctxNow(), 2);
    expect(report.leads).toBeGreaterThanOrEqual(7);
    expect(report.profiles).toBeGreaterThanOrEqual(1);
    expect(report.items).toBeGreaterThanOrEqual(7);

    expect(await leadsLeft([aliceOld, aliceInB, bobTombstone, bobRecent, edge, ...manyOld])).toEqual(
      new Set([aliceInB.id, bobRecent.id, edge.id]),
    );
    expect(await profilesLeft([aliceInA, aliceProfileB, bobInA])).toEqual(
      new Set([aliceProfileB.id, bobInA.id]),
    );
    expect(await itemExists(sharedItem.name)).toBe(true);
    expect(await itemExists(bobTombstone.itemName)).toBe(false);
    for (const lead of manyOld) expect(await itemExists(lead.itemName)).toBe(false);
    expect(await itemExists(orphan.name)).toBe(false);
    expect(await itemExists(justRead.name)).toBe(true);
    expect(await itemExists(bobRecent.itemName)).toBe(true);

    // A second run finds nothing more of these.
    await pruneExpiredLeads(ctxNow(), 2);
    expect(await leadsLeft([aliceInB, bobRecent, edge])).toEqual(
      new Set([aliceInB.id, bobRecent.id, edge.id]),
    );
  });

  it('runs daily as a job', () => {
    expect(pruneLeadsJob.cron).toMatch(/^\d+ \d+ \* \* \*$/);
    expect(pruneLeadsJob.policy).toBe('singleton');
  });
});
