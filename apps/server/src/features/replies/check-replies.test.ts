import { eq } from 'drizzle-orm';
import type { TCheckRepliesResult, THistoryItem } from '@threadreach/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { virtualClock } from '../../integrations/reddit/reddit-test-support';
import { buildProject } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { asAccount, redditAccounts, type RedditAccountRow } from '../accounts';
import { deleteProjectAccount } from '../accounts/accounts.repository';
import { isRecipientBlocked } from '../suppressions';
import { accountsToPoll } from './replies.repository';
import { connectSimAccount, insertDm } from './replies.test-support';

const SUBJECT = 'About your post in r/SaaS';
type Project = Awaited<ReturnType<typeof buildProject>>;

describe('POST /projects/{id}/history/check-replies', () => {
  const clock = virtualClock();
  let t: TestApp;
  let project: Project;
  let account: RedditAccountRow;
  let recipients: string[];

  beforeAll(async () => {
    t = await createTestApp({ reddit: { clock } });
    project = await buildProject(t.ctx.db, t.config);
    account = await connectSimAccount(t.ctx, t.sim!, project);
    const listing = await asAccount(t.ctx, account, (api) =>
      api.listNew(['SaaS', 'startups'], { limit: 50 }),
    );
    const authors = [...new Set(listing.data.children.map((c) => c.data.author))].filter(
      (a) => a !== 'demo_founder' && a !== '[deleted]',
    );
    recipients = [];
    for (const to of authors) {
      if (recipients.length === 2) break;
      const sent = await asAccount(t.ctx, account, (api) =>
        api.compose({ to, subject: SUBJECT, text: `Hi ${to}, would our tool help?` }),
      );
      if (!sent.ok) continue;
      const at = new Date(clock.now());
      await insertDm(t.ctx.db, {
        projectId: project.id,
        ownerUserId: project.owner.id,
        recipient: to,
        subject: SUBJECT,
        accountId: account.id,
        sentAt: at,
        createdAt: at,
      });
      recipients.push(to);
    }
    expect(recipients).toHaveLength(2);
  });
  afterAll(() => t?.close());

  const check = async (p: Project = project) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/projects/${p.id}/history/check-replies`,
      headers: p.owner.auth,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as TCheckRepliesResult;
  };

  it('reads the inbox of the accounts that sent the project’s DMs now and records each reply once', async () => {
    clock.t += 60_000;
    expect(await check()).toEqual({
      project_id: project.id,
      accounts_checked: 1,
      new_replies: 0,
      refusals: 0,
      not_checked: [],
    });

    const [keen, refusing] = recipients as [string, string];
    t.sim!.answerNow(keen, 'demo_founder', { body: 'Sounds useful, how much is it?' });
    t.sim!.answerNow(refusing, 'demo_founder', { kind: 'stop', body: 'Not interested, please stop.' });
    expect(await check()).toMatchObject({ accounts_checked: 1, new_replies: 2, refusals: 1 });
    // A second look finds nothing new.
    expect(await check()).toMatchObject({ accounts_checked: 1, new_replies: 0, refusals: 0 });

    const res = await t.app.inject({
      url: `/api/v1/projects/${project.id}/history`,
      headers: project.owner.auth,
    });
    const items = (res.json() as { items: THistoryItem[] }).items;
    const reply = (name: string) => items.find((i) => i.recipient_username === name);
    expect(reply(keen)).toMatchObject({
      reply_status: 'replied',
      last_reply: { body: 'Sounds useful, how much is it?' },
    });
    expect(reply(refusing)).toMatchObject({ reply_status: 'refused' });
  });

  it('names the accounts it could not read, and why', async () => {
    await t.ctx.db
      .update(redditAccounts)
      .set({ authStatus: 'expired' })
      .where(eq(redditAccounts.id, account.id));
    expect(await check()).toMatchObject({
      accounts_checked: 0,
      not_checked: [
        {
          account_username: 'demo_founder',
          reason: 'u/demo_founder must be re-authenticated before its inbox can be read',
        },
      ],
    });
  });

  it('has nothing to read for a project that sent nothing', async () => {
    const quiet = await buildProject(t.ctx.db, t.config);
    expect(await check(quiet)).toMatchObject({ accounts_checked: 0, new_replies: 0, not_checked: [] });
  });
});

describe('replies to DMs sent before the account was removed and connected again', () => {
  const clock = virtualClock();
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ reddit: { clock } });
  });
  afterAll(() => t?.close());

  it('are read from the same Reddit inbox: recorded, and a refusal puts the person on the list', async () => {
    const project = await buildProject(t.ctx.db, t.config);
    const first = await connectSimAccount(t.ctx, t.sim!, project);
    const listing = await asAccount(t.ctx, first, (api) => api.listNew(['SaaS', 'startups'], { limit: 50 }));
    const authors = [...new Set(listing.data.children.map((c) => c.data.author))].filter(
      (a) => a !== 'demo_founder' && a !== '[deleted]',
    );
    let refusing: string | null = null;
    for (const to of authors) {
      const sent = await asAccount(t.ctx, first, (api) =>
        api.compose({ to, subject: SUBJECT, text: `Hi ${to}, would our tool help?` }),
      );
      if (!sent.ok) continue;
      const at = new Date(clock.now());
      await insertDm(t.ctx.db, {
        projectId: project.id,
        ownerUserId: project.owner.id,
        recipient: to,
        subject: SUBJECT,
        accountId: first.id,
        sender: first.redditUsername,
        sentAt: at,
        createdAt: at,
      });
      refusing = to;
      break;
    }
    expect(refusing).not.toBeNull();

    // The customer removes u/demo_founder and connects it again: the DM keeps no account id.
    clock.t += 60_000;
    await deleteProjectAccount(t.ctx.db, project.id, first.id, new Date(clock.now()));
    const again = await connectSimAccount(t.ctx, t.sim!, project);
    t.sim!.answerNow(refusing!, 'demo_founder', { kind: 'stop', body: 'Please stop messaging me.' });

    // The scheduled polls watch it, and Check for replies reads it now.
    expect(await accountsToPoll(t.ctx.db, new Date(clock.now() - 86_400_000))).toContain(again.id);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/projects/${project.id}/history/check-replies`,
      headers: project.owner.auth,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ accounts_checked: 1, new_replies: 1, refusals: 1 });
    expect(await isRecipientBlocked(t.ctx.db, project.owner.id, refusing!.toLowerCase())).toMatchObject({
      code: 'suppressed',
    });
  });
});
