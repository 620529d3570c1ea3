import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TCampaignStatistics, THistoryItem, TSendingStatus } from '@threadreach/contract';
import { fixedClock } from '../../test/clock.test-support';
import { buildProject, buildUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { dmMessages, type DmState } from '../dms/dms.table';
import { leads } from '../leads/leads.table';
import { buildLead, buildProfile } from '../leads/leads.test-support';
import { insertAccount, insertDm, insertReplyRow } from '../replies/replies.test-support';

let t: TestApp;
const clock = fixedClock(Date.UTC(2026, 2, 2, 9));
const at = (hour: number) => new Date(Date.UTC(2026, 2, 1, hour));

type Project = Awaited<ReturnType<typeof buildProject>>;
let project: Project;

beforeAll(async () => {
  t = await createTestApp({ clock });
  project = await buildProject(t.ctx.db, t.config);
  const account = await insertAccount(t.ctx, project, {
    credentialId: null,
    username: 'demo_founder',
    refreshToken: 'r',
  });
  const dm = (recipient: string, spec: Parameters<typeof insertDm>[1] extends infer S ? Partial<S> : never) =>
    insertDm(t.ctx.db, {
      projectId: project.id,
      ownerUserId: project.owner.id,
      recipient,
      accountId: account.id,
      ...spec,
    });
  const alice = await dm('Alice_A', { sentAt: at(1), repliedAt: at(2), text: 'Hi Alice' });
  await insertReplyRow(t.ctx.db, alice, { body: 'Tell me more', receivedAt: at(2) });
  await insertReplyRow(t.ctx.db, alice, {
    body: 'Actually, please stop',
    receivedAt: at(5),
    isRefusal: true,
  });
  const bob = await dm('bob_b', { sentAt: at(3), repliedAt: at(4), subreddit: 'startups' });
  await insertReplyRow(t.ctx.db, bob, { body: 'Is there a free trial?', receivedAt: at(4) });
  await dm('carl_c', { sentAt: at(6) });
  await dm('dora_d', { state: 'approved', sentAt: null });
  await dm('dora_e', { state: 'draft', sentAt: null });
  await dm('ed_e', { state: 'failed', sentAt: null });
  await dm('fay_f', { state: 'expired', sentAt: null });
  await dm('gus_g', { state: 'unknown', sentAt: null });
  // Another customer's DM to the same person: not this project's.
  const other = await buildProject(t.ctx.db, t.config);
  await insertDm(t.ctx.db, {
    projectId: other.id,
    ownerUserId: other.owner.id,
    recipient: 'carl_c',
    sentAt: at(7),
  });
});
afterAll(() => t.close());

const history = async (query = '', p: Project = project) => {
  const res = await t.app.inject({ url: `/api/v1/projects/${p.id}/history${query}`, headers: p.owner.auth });
  expect(res.statusCode).toBe(200);
  return res.json() as { items: THistoryItem[]; total: number };
};

describe('GET /projects/{id}/history', () => {
  it('lists the people the project contacted, the latest sent first, with their latest reply', async () => {
    const page = await history();
    expect(page.total).toBe(3);
    expect(page.items.map((i) => [i.recipient_username, i.reply_status, i.reply_count])).toEqual([
      ['carl_c', 'no_reply', 0],
      ['bob_b', 'replied', 1],
      ['Alice_A', 'refused', 2],
    ]);
    expect(page.items[1]).toMatchObject({
      sent_at: at(3).toISOString(),
      account_username: 'demo_founder',
      subject: 'About your post',
      subreddit: 'startups',
      source_type: 'post',
      last_reply: { body: 'Is there a free trial?', received_at: at(4).toISOString(), is_refusal: false },
    });
    expect(page.items[2]).toMatchObject({
      message_content: 'Hi Alice',
      last_reply: { body: 'Actually, please stop', is_refusal: true },
    });
    expect(page.items[0]!.last_reply).toBeNull();
  });

  it('names the Reddit account a DM went from after it was removed, and connected again or not', async () => {
    const p = await buildProject(t.ctx.db, t.config);
    await insertAccount(t.ctx, p, { credentialId: null, username: 'Growth_Marketer', refreshToken: 'r' });
    // Sent by connections since removed: the DMs keep their claim's name, no account id.
    for (const [recipient, sender, hour] of [
      ['hana_h', 'growth_marketer', 1],
      ['ivan_i', 'gone_seller', 2],
    ] as const) {
      const dm = await insertDm(t.ctx.db, {
        projectId: p.id,
        ownerUserId: p.owner.id,
        recipient,
        sentAt: at(hour),
      });
      await t.ctx.db.update(dmMessages).set({ senderKey: sender }).where(eq(dmMessages.id, dm.id));
    }
    const page = await history('', p);
    expect(page.items.map((i) => [i.recipient_username, i.account_username])).toEqual([
      ['ivan_i', 'gone_seller'],
      ['hana_h', 'Growth_Marketer'],
    ]);
  });

  it('keeps one kind of answer, and pages', async () => {
    const names = async (query: string) => (await history(query)).items.map((i) => i.recipient_username);
    expect(await names('?reply_status=refused')).toEqual(['Alice_A']);
    expect(await names('?reply_status=replied')).toEqual(['bob_b']);
    expect(await names('?reply_status=no_reply')).toEqual(['carl_c']);
    const second = await history('?limit=1&offset=1');
    expect(second).toMatchObject({ total: 3, limit: 1, offset: 1 });
    expect(second.items.map((i) => i.recipient_username)).toEqual(['bob_b']);
    const bad = await t.app.inject({
      url: `/api/v1/projects/${project.id}/history?reply_status=maybe`,
      headers: project.owner.auth,
    });
    expect(bad.statusCode).toBe(400);
  });

  it('is empty for a project that contacted nobody', async () => {
    const empty = await buildProject(t.ctx.db, t.config);
    expect(await history('', empty)).toEqual({ items: [], total: 0, limit: 100, offset: 0 });
  });
});

describe('GET /campaign-statistics', () => {
  it("counts the project's DMs from the rows: generated, sent, failed, expired, replied and the reply rate", async () => {
    const res = await t.app.inject({
      url: `/api/v1/campaign-statistics?project_id=${project.id}`,
      headers: project.owner.auth,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual<TCampaignStatistics>({
      project_id: project.id,
      generated: 8,
      sent: 3,
      failed: 1,
      expired: 1,
      pending: 3,
      replied: 2,
      refused: 1,
      reply_rate: 0.6667,
    });
  });

  it('answers zeros for a project without DMs, and 404 for a project of someone else', async () => {
    const empty = await buildProject(t.ctx.db, t.config);
    const url = `/api/v1/campaign-statistics?project_id=${empty.id}`;
    expect((await t.app.inject({ url, headers: empty.owner.auth })).json()).toMatchObject({
      generated: 0,
      sent: 0,
      replied: 0,
      reply_rate: 0,
    });
    const stranger = await buildUser(t.ctx.db, t.config);
    expect((await t.app.inject({ url, headers: stranger.auth })).statusCode).toBe(404);
  });
});

describe('the campaign counts and the sending status', () => {
  it('count the same failed sends: DMs held back because of their person are apart in both', async () => {
    const p = await buildProject(t.ctx.db, t.config);
    const dm = async (recipient: string, state: DmState, outcomeCode: string | null = null) => {
      const row = await insertDm(t.ctx.db, { projectId: p.id, ownerUserId: p.owner.id, recipient, state });
      await t.ctx.db.update(dmMessages).set({ outcomeCode }).where(eq(dmMessages.id, row.id));
    };
    await dm('sent_s', 'sent', 'sent');
    await dm('refused_text', 'failed', 'compose_refused');
    await dm('gone_user', 'failed', 'user_doesnt_exist');
    await dm('on_the_list', 'failed', 'suppressed');
    await dm('answered', 'failed', 'replied');
    await dm('contacted', 'failed', 'already_contacted');
    await dm('too_old', 'expired');
    await dm('waiting', 'queued');
    const get = async (url: string) => {
      const res = await t.app.inject({ url, headers: p.owner.auth });
      expect(res.statusCode).toBe(200);
      return res.json();
    };
    const campaign = (await get(`/api/v1/campaign-statistics?project_id=${p.id}`)) as TCampaignStatistics;
    const status = (await get(`/api/v1/dm-sending-status?project_id=${p.id}`)) as TSendingStatus;
    expect(campaign).toMatchObject({ generated: 8, sent: 1, failed: 2, expired: 1, pending: 1 });
    expect(status.counts).toMatchObject({ sent: 1, failed: 2, withheld: 3, queued: 1 });
    // Every DM the status lists is in one of its counts.
    const { delivery_unknown: _a, queued_by_agent: _b, ...byState } = status.counts;
    expect(Object.values(byState).reduce((a, b) => a + b, 0)).toBe(status.total);
  });
});

describe('candidate lists', () => {
  it('leave out people the workspace contacted; they are in History', async () => {
    const p = await buildProject(t.ctx.db, t.config, { owner: project.owner });
    const contacted = await buildLead(t.ctx.db, p.id, { author: 'Carl_C' });
    const fresh = await buildLead(t.ctx.db, p.id, { author: 'new_nina' });
    const contactedComment = await buildLead(t.ctx.db, p.id, { author: 'bob_b', kind: 'comment' });
    const drafted = await buildLead(t.ctx.db, p.id, { author: 'dora_d' });
    await buildProfile(t.ctx.db, p.id, { redditUsername: 'alice_a' });
    const freshProfile = await buildProfile(t.ctx.db, p.id, { redditUsername: 'new_nina' });
    const get = async (url: string) =>
      (await t.app.inject({ url, headers: p.owner.auth })).json() as {
        items: { id: string }[];
        total: number;
      };

    const posts = await get(`/api/v1/posts?project_id=${p.id}`);
    expect(posts.items.map((i) => i.id).sort()).toEqual([fresh.id, drafted.id].sort());
    expect(posts.total).toBe(2);
    expect(posts.items.map((i) => i.id)).not.toContain(contacted.id);
    const comments = await get(`/api/v1/projects/${p.id}/comments`);
    expect(comments.items.map((i) => i.id)).not.toContain(contactedComment.id);
    expect(comments.total).toBe(0);
    const profiles = await get(`/api/v1/projects/${p.id}/profiles`);
    expect(profiles.items.map((i) => i.id)).toEqual([freshProfile.id]);

    // Delete all takes what the list shows, not the people in History.
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/posts?project_id=${p.id}`,
      headers: p.owner.auth,
    });
    expect(deleted.json()).toEqual({ deleted_count: 2 });
    const [kept] = await t.ctx.db.select().from(leads).where(eq(leads.id, contacted.id));
    expect(kept!.dismissedAt).toBeNull();

    // Contacted by another customer only: still a candidate here.
    const otherWorkspace = await buildProject(t.ctx.db, t.config);
    const theirs = await buildLead(t.ctx.db, otherWorkspace.id, { author: 'carl_c' });
    const their = await t.app.inject({
      url: `/api/v1/posts?project_id=${otherWorkspace.id}`,
      headers: otherWorkspace.owner.auth,
    });
    expect(their.json().items.map((i: { id: string }) => i.id)).toEqual([theirs.id]);
  });

  it("leave out people on the workspace's do-not-contact list, in every project, and take them back when removed", async () => {
    const owner = await buildUser(t.ctx.db, t.config, { profilesLimit: 3 });
    const p = await buildProject(t.ctx.db, t.config, { owner });
    const second = await buildProject(t.ctx.db, t.config, { owner });
    const listed = await buildLead(t.ctx.db, p.id, { author: 'Quiet_Quinn' });
    const listedComment = await buildLead(t.ctx.db, second.id, { author: 'quiet_quinn', kind: 'comment' });
    const fresh = await buildLead(t.ctx.db, p.id, { author: 'open_olga' });
    await buildProfile(t.ctx.db, second.id, { redditUsername: 'QUIET_QUINN' });
    const ids = async (url: string) => {
      const page = (await t.app.inject({ url, headers: owner.auth })).json() as {
        items: { id: string }[];
        total: number;
      };
      return { ids: page.items.map((i) => i.id).sort(), total: page.total };
    };
    const added = await t.app.inject({
      method: 'POST',
      url: '/api/v1/do-not-contact',
      headers: owner.auth,
      payload: { usernames: ['quiet_quinn'] },
    });
    expect(added.statusCode).toBe(200);

    expect(await ids(`/api/v1/posts?project_id=${p.id}`)).toEqual({ ids: [fresh.id], total: 1 });
    expect(await ids(`/api/v1/projects/${second.id}/comments`)).toEqual({ ids: [], total: 0 });
    expect(await ids(`/api/v1/projects/${second.id}/profiles`)).toEqual({ ids: [], total: 0 });

    const removed = await t.app.inject({
      method: 'DELETE',
      url: '/api/v1/do-not-contact/quiet_quinn',
      headers: owner.auth,
    });
    expect(removed.statusCode).toBe(204);
    expect((await ids(`/api/v1/posts?project_id=${p.id}`)).ids).toEqual([listed.id, fresh.id].sort());
    expect((await ids(`/api/v1/projects/${second.id}/comments`)).ids).toEqual([listedComment.id]);
    expect((await ids(`/api/v1/projects/${second.id}/profiles`)).total).toBe(1);
  });
});
