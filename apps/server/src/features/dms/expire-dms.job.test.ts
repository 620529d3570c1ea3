import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../context';
import { fixedClock } from '../../test/clock.test-support';
import { buildProject } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { buildLead, buildProfile, redditName } from '../leads/leads.test-support';
import { expireStaleDms } from './dm-expiry';
import { dmMessages, type DmMessageRow } from './dms.table';
import { buildDm } from './dms.test-support';
import { expireDmsJob } from './expire-dms.job';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { DM_EXPIRY_DAYS: '14' } });
});
afterAll(() => t.close());

const DAY_MS = 86_400_000;
// Long before what other suites store: on PostgreSQL they share this database, and expiry is global.
const NOW = Date.parse('2001-06-01T00:00:00Z');
const daysAgo = (days: number) => new Date(NOW - days * DAY_MS);
const ctxNow = (): AppContext => ({ ...t.ctx, clock: fixedClock(NOW) });

async function statesOf(rows: DmMessageRow[]) {
  const found = await t.ctx.db
    .select({ id: dmMessages.id, state: dmMessages.state })
    .from(dmMessages)
    .where(
      inArray(
        dmMessages.id,
        rows.map((r) => r.id),
      ),
    );
  return Object.fromEntries(found.map((r) => [r.id, r.state]));
}

describe('expire-dms', () => {
  it('expires unsent DMs (queued ones too) whose lead is older than DM_EXPIRY_DAYS, and nothing else', async () => {
    const project = await buildProject(t.ctx.db, t.config);
    const dmAbout = async (leadDaysAgo: number, state: DmMessageRow['state']) => {
      const lead = await buildLead(t.ctx.db, project.id, {
        author: redditName(),
        itemCreatedAt: daysAgo(leadDaysAgo),
      });
      return buildDm(t.ctx.db, project.id, {
        leadId: lead.id,
        redditPostId: lead.itemName,
        recipientUsername: lead.author,
        state,
        createdAt: daysAgo(1),
      });
    };
    const oldApproved = await dmAbout(20, 'approved');
    const oldDraft = await dmAbout(15, 'draft');
    const freshApproved = await dmAbout(13, 'approved');
    const oldQueued = await dmAbout(20, 'queued');
    const oldSent = await dmAbout(20, 'sent');
    const oldFailed = await dmAbout(20, 'failed');
    // A profile counts from when it last matched.
    const staleProfile = await buildProfile(t.ctx.db, project.id, { lastFoundAt: daysAgo(30) });
    const activeProfile = await buildProfile(t.ctx.db, project.id, { lastFoundAt: daysAgo(2) });
    const profileDm = (profileId: string, username: string) =>
      buildDm(t.ctx.db, project.id, {
        sourceType: 'profile',
        leadId: null,
        profileId,
        redditPostId: `profile_${profileId}`,
        recipientUsername: username,
        createdAt: daysAgo(1),
      });
    const staleProfileDm = await profileDm(staleProfile.id, staleProfile.redditUsername);
    const activeProfileDm = await profileDm(activeProfile.id, activeProfile.redditUsername);
    // The lead is gone (pruned): the DM's own age counts.
    const orphanOld = await buildDm(t.ctx.db, project.id, {
      leadId: null,
      recipientUsername: redditName(),
      createdAt: daysAgo(15),
    });
    const orphanNew = await buildDm(t.ctx.db, project.id, {
      leadId: null,
      recipientUsername: redditName(),
      createdAt: daysAgo(3),
    });

    const all = [
      oldApproved,
      oldDraft,
      freshApproved,
      oldQueued,
      oldSent,
      oldFailed,
      staleProfileDm,
      activeProfileDm,
      orphanOld,
      orphanNew,
    ];
    expect(await expireStaleDms(ctxNow(), 2)).toBe(5);
    expect(await statesOf(all)).toEqual({
      [oldApproved.id]: 'expired',
      [oldDraft.id]: 'expired',
      [freshApproved.id]: 'approved',
      [oldQueued.id]: 'expired',
      [oldSent.id]: 'sent',
      [oldFailed.id]: 'failed',
      [staleProfileDm.id]: 'expired',
      [activeProfileDm.id]: 'approved',
      [orphanOld.id]: 'expired',
      [orphanNew.id]: 'approved',
    });

    // The daily job runs the same, and a second run finds nothing left.
    await expireDmsJob.handler(ctxNow(), {});
    expect(await expireStaleDms(ctxNow())).toBe(0);
  });
});
