import { and, eq } from 'drizzle-orm';
import type { MessageStyle, StoredMessage } from '@threadreach/reddit-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { virtualClock } from '../../integrations/reddit/reddit-test-support';
import { retryAtOf } from '../../jobs/job';
import { recordingQueue } from '../../jobs/queue.test-support';
import { buildProject } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { asAccount, redditAccounts, type RedditAccountRow } from '../accounts';
import { dmMessages } from '../dms/dms.table';
import { isRecipientBlocked, suppressions } from '../suppressions';
import { pollInboxJob, scheduleInboxPollsJob } from './poll-inbox.job';
import { pollInbox } from './poll-inbox.service';
import { dmReplies } from './replies.table';
import { connectSimAccount, insertAccount, insertDm } from './replies.test-support';

const HOUR = 3_600_000;
const SUBJECT = 'About your post in r/SaaS';

type Project = Awaited<ReturnType<typeof buildProject>>;

describe.each<MessageStyle>(['classic', 'chat'])('replies to sent DMs (%s messages)', (messageStyle) => {
  const clock = virtualClock();
  const queue = recordingQueue();
  let t: TestApp;
  let project: Project;
  /** A second project of the same workspace, with DMs to the same people not sent yet. */
  let sibling: Project;
  let account: RedditAccountRow;
  let recipients: string[];
  /** An account whose grant Reddit refuses. */
  let refused: RedditAccountRow;

  beforeAll(async () => {
    t = await createTestApp({ reddit: { clock, messageStyle }, queue: queue.starter });
    project = await buildProject(t.ctx.db, t.config);
    sibling = await buildProject(t.ctx.db, t.config, { owner: project.owner });
    account = await connectSimAccount(t.ctx, t.sim!, project);
    const listing = await asAccount(t.ctx, account, (api) =>
      api.listNew(['SaaS', 'startups'], { limit: 100 }),
    );
    recipients = [...new Set(listing.data.children.map((c) => c.data.author))].filter(
      (a) => a !== 'demo_founder' && a !== '[deleted]',
    );
  });
  afterAll(() => t?.close());

  /** DMs composed on the simulator as the account, and recorded sent, as a send would. */
  async function send(names: string[]): Promise<string[]> {
    const sent: string[] = [];
    for (const to of names) {
      const result = await asAccount(t.ctx, account, (api) =>
        api.compose({ to, subject: SUBJECT, text: `Hi ${to}, saw your post. Would our tool help?` }),
      );
      if (!result.ok) continue;
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
      await insertDm(t.ctx.db, {
        projectId: sibling.id,
        ownerUserId: project.owner.id,
        recipient: to,
        state: 'approved',
        createdAt: at,
      });
      sent.push(to);
    }
    return sent;
  }

  const repliesOnReddit = (): StoredMessage[] =>
    t.sim!.inspect.replies().filter((r) => r.to === 'demo_founder');

  async function stored() {
    return t.ctx.db.select().from(dmReplies).where(eq(dmReplies.projectId, project.id));
  }

  it('stores each answer once, marks the DM replied, stops later sends and suppresses refusals', async () => {
    const sent = await send(recipients.slice(0, 14));
    expect(sent.length).toBeGreaterThanOrEqual(10);
    clock.t += 7 * HOUR;
    const answers = repliesOnReddit();
    // The simulator's seeded recipients answer both ways in this batch.
    expect(answers.some((r) => r.replyKind === 'stop')).toBe(true);
    expect(answers.some((r) => r.replyKind === 'interested')).toBe(true);

    const report = await pollInbox(t.ctx, account.id);
    expect(report).toMatchObject({ skipped: null, pages: 1, replies: answers.length });
    expect(report.refusals).toBe(answers.filter((r) => r.replyKind === 'stop').length);

    const rows = await stored();
    expect(rows.map((r) => [r.redditName, r.author, r.body, r.isRefusal]).sort()).toEqual(
      answers.map((r) => [r.name, r.from, r.body, r.replyKind === 'stop']).sort(),
    );
    for (const answer of answers) {
      const [dm] = await t.ctx.db
        .select()
        .from(dmMessages)
        .where(and(eq(dmMessages.projectId, project.id), eq(dmMessages.recipientUsername, answer.from)));
      expect(dm!.repliedAt?.getTime()).toBe(Math.floor(answer.createdMs / 1000) * 1000);
      expect(rows.find((r) => r.redditName === answer.name)!.dmId).toBe(dm!.id);
    }

    // Unsent DMs of the workspace to people who answered do not go out; the others stay.
    const later = await t.ctx.db.select().from(dmMessages).where(eq(dmMessages.projectId, sibling.id));
    const answered = new Set(answers.map((r) => r.from));
    for (const dm of later) {
      if (answered.has(dm.recipientUsername)) {
        expect(dm).toMatchObject({ state: 'failed', outcomeCode: 'replied' });
        expect(dm.outcomeReason).toContain(`u/${dm.recipientUsername} replied to an earlier message`);
      } else {
        expect(dm.state).toBe('approved');
      }
    }

    const listed = await t.ctx.db
      .select()
      .from(suppressions)
      .where(eq(suppressions.ownerUserId, project.owner.id));
    const refusers = answers.filter((r) => r.replyKind === 'stop');
    expect(listed.map((s) => [s.username, s.reason]).sort()).toEqual(
      refusers.map((r) => [r.from, 'refusal']).sort(),
    );
    expect(listed[0]!.note).toMatch(/^Replied: ".+"$/);
    const refuser = refusers[0]!.from.toLowerCase();
    expect(await isRecipientBlocked(t.ctx.db, project.owner.id, refuser)).toMatchObject({
      code: 'suppressed',
    });
    const interested = answers.find((r) => r.replyKind === 'interested')!.from.toLowerCase();
    expect(await isRecipientBlocked(t.ctx.db, project.owner.id, interested)).toMatchObject({
      code: 'replied',
    });

    // The answers read on Reddit no longer show as new.
    expect(repliesOnReddit().every((r) => r.read)).toBe(true);
  });

  it('reads only what is new on the next polls, and picks up later answers', async () => {
    const before = (await stored()).length;
    const again = await pollInbox(t.ctx, account.id);
    expect(again).toMatchObject({ pages: 1, replies: 0, stopped: 0 });
    const [row] = await t.ctx.db.select().from(redditAccounts).where(eq(redditAccounts.id, account.id));
    expect(row!.inboxCursor).toMatch(/^t4_/);
    expect(row!.inboxCheckedAt?.getTime()).toBe(clock.now());

    await send(recipients.slice(14, 24));
    clock.t += 7 * HOUR;
    const answers = repliesOnReddit();
    expect(answers.length).toBeGreaterThan(before);
    const next = await pollInbox(t.ctx, account.id);
    expect(next.replies).toBe(answers.length - before);
    expect((await stored()).length).toBe(answers.length);
  });

  it('is rescheduled when the budget is spent, and skips an account that must sign in again', async () => {
    t.sim!.faults.add({ kind: 'status', status: 429, path: '/message/inbox' });
    const spent = await pollInbox(t.ctx, account.id).catch((error: unknown) => error);
    expect(retryAtOf(spent)).toBeGreaterThan(clock.now());
    t.sim!.faults.clear();
    clock.t += HOUR;

    refused = await insertAccount(t.ctx, project, {
      credentialId: account.credentialId,
      username: 'growth_marketer',
      refreshToken: 'revoked-refresh-token',
    });
    await insertDm(t.ctx.db, {
      projectId: project.id,
      ownerUserId: project.owner.id,
      recipient: 'someone_else',
      accountId: refused.id,
      sentAt: new Date(clock.now()),
    });
    expect(await pollInbox(t.ctx, refused.id)).toMatchObject({ skipped: 'auth_required', pages: 0 });
    const [row] = await t.ctx.db.select().from(redditAccounts).where(eq(redditAccounts.id, refused.id));
    expect(row!.authStatus).toBe('expired');
    expect(await pollInbox(t.ctx, refused.id)).toMatchObject({ skipped: 'auth_required' });
  });

  it('queues one poll per account that can sign in and sent DMs lately', async () => {
    const quiet = await insertAccount(t.ctx, project, {
      credentialId: account.credentialId,
      username: 'fresh_account',
      refreshToken: 'unused',
    });
    expect(await pollInbox(t.ctx, quiet.id)).toMatchObject({ skipped: 'nothing_to_watch' });
    queue.jobs.length = 0;
    await scheduleInboxPollsJob.handler(t.ctx, {});
    // On a shared PostgreSQL other suites' accounts are there too: only this workspace's are looked at.
    const ours = new Set([account.id, quiet.id, refused.id]);
    expect(queue.jobs.filter((j) => ours.has((j.data as { accountId: string }).accountId))).toEqual([
      { name: pollInboxJob.name, data: { accountId: account.id }, options: { singletonKey: account.id } },
    ]);
  });
});
