import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  DM_EMPTY,
  DM_MAX_LENGTH,
  DM_SENT_READ_ONLY,
  DM_TEXTS,
  DM_TOO_LONG,
  PRODUCT_INFO_MISSING,
  type TDmList,
  type TDmMessage,
  type TDmState,
  type TGenerateDmsResponse,
} from '@threadreach/contract';
import { AiError } from '../../ai/ai.provider';
import { buildProject, validProductInfo } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { redditAccounts } from '../accounts/accounts.table';
import { leads } from '../leads/leads.table';
import { buildAuthor, buildLead, buildProfile, redditName } from '../leads/leads.test-support';
import { suppressions } from '../suppressions/suppressions.table';
import { dmMessages, messageExamples } from './dms.table';
import { buildDm } from './dms.test-support';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
afterEach(() => {
  vi.restoreAllMocks();
});

type Project = Awaited<ReturnType<typeof buildProject>>;

async function newProject(options: { productInfo?: boolean; owner?: Project['owner'] } = {}) {
  const project = await buildProject(t.ctx.db, t.config, options.owner ? { owner: options.owner } : {});
  if (options.productInfo !== false) {
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/projects/${project.id}/product-info`,
      headers: project.owner.auth,
      payload: validProductInfo(),
    });
    expect(res.statusCode).toBe(200);
  }
  return project;
}

function post(project: Project, url: string, payload?: Record<string, unknown>) {
  return t.app.inject({ method: 'POST', url, headers: project.owner.auth, ...(payload ? { payload } : {}) });
}

async function generateForPosts(project: Project, postIds: string[]) {
  return post(project, '/api/v1/generate-dm-messages-for-selected', {
    project_id: project.id,
    post_ids: postIds,
  });
}

async function listDms(project: Project): Promise<TDmMessage[]> {
  const res = await t.app.inject({
    url: `/api/v1/dm-messages?project_id=${project.id}`,
    headers: project.owner.auth,
  });
  expect(res.statusCode).toBe(200);
  return res.json().items;
}

async function dmRow(id: string) {
  const [row] = await t.ctx.db.select().from(dmMessages).where(eq(dmMessages.id, id));
  return row!;
}

async function examplesOf(dmId: string) {
  return t.ctx.db.select().from(messageExamples).where(eq(messageExamples.dmId, dmId));
}

describe('writing DMs', () => {
  it('writes a DM for each selected post, stored approved with what it answers', async () => {
    const project = await newProject();
    const author = redditName('Asker');
    const lead = await buildLead(t.ctx.db, project.id, {
      author,
      subreddit: 'freelance',
      title: 'Looking for a CRM that handles invoices',
      body: 'I run a small design agency and juggle clients in spreadsheets. Any CRM you like?',
    });
    const res = await generateForPosts(project, [lead.id]);
    expect(res.statusCode).toBe(200);
    const body: TGenerateDmsResponse = res.json();
    expect(body.skipped).toEqual([]);
    expect(body.failed).toEqual([]);
    expect(body.generated_messages).toHaveLength(1);
    const dm = body.generated_messages[0]!;
    expect(dm).toMatchObject({
      project_id: project.id,
      state: 'approved',
      approved: true,
      sent: false,
      edited: false,
      source_type: 'post',
      recipient_username: author,
      post_id: lead.id,
      comment_id: null,
      profile_id: null,
      reddit_post_id: lead.itemName,
      post_title: 'Looking for a CRM that handles invoices',
      subreddit: 'freelance',
      matched_keywords: ['crm'],
      subject: 'Re: Looking for a CRM that handles invoices',
      variant: 0,
    });
    expect(dm.message_content.length).toBeGreaterThan(0);
    expect(dm.message_content.length).toBeLessThanOrEqual(DM_MAX_LENGTH);
    expect(dm.original_content).toBe(dm.message_content);
    const row = await dmRow(dm.id);
    expect(row).toMatchObject({
      ownerUserId: project.owner.id,
      recipientKey: author.toLowerCase(),
      postContent: 'I run a small design agency and juggle clients in spreadsheets. Any CRM you like?',
    });
  });

  it('writes a DM to the author of a comment, and to a profile', async () => {
    const project = await newProject();
    const commenter = redditName('commenter');
    const comment = await buildLead(t.ctx.db, project.id, {
      kind: 'comment',
      author: commenter,
      title: 'What do you use for invoicing?',
      body: 'Honestly I would pay for a CRM that sends invoice reminders for me.',
    });
    const fromComment = await post(project, '/api/v1/generate-dm-from-comment', {
      project_id: project.id,
      id: comment.id,
      // The comment as listed: its other fields are not read.
      content: 'ignored',
    });
    expect(fromComment.statusCode).toBe(200);
    expect(fromComment.json().generated_messages[0]).toMatchObject({
      source_type: 'comment',
      recipient_username: commenter,
      comment_id: comment.id,
      post_id: null,
      reddit_post_id: `comment_${comment.itemName}`,
      comment_content: 'Honestly I would pay for a CRM that sends invoice reminders for me.',
      post_title: 'What do you use for invoicing?',
      subject: 'Re: What do you use for invoicing?',
    });

    const person = redditName('person');
    await buildAuthor(t.ctx.db, {
      name: person,
      bio: 'Freelance designer. Always hunting for better tools.',
    });
    const profile = await buildProfile(t.ctx.db, project.id, { redditUsername: person });
    const fromProfile = await post(project, '/api/v1/generate-dm-from-profile', {
      project_id: project.id,
      id: profile.id,
    });
    expect(fromProfile.statusCode).toBe(200);
    expect(fromProfile.json().generated_messages[0]).toMatchObject({
      source_type: 'profile',
      recipient_username: person,
      profile_id: profile.id,
      reddit_post_id: `profile_${profile.id}`,
      post_title: null,
      subject: `Hi ${person}`,
    });

    const listed = await listDms(project);
    // Newest first.
    expect(listed.map((d) => d.source_type)).toEqual(['profile', 'comment']);
  });

  it('skips authors already written to in the project, on the do-not-contact list or contacted elsewhere', async () => {
    const project = await newProject();
    const sibling = await newProject({ owner: project.owner });
    const [twice, suppressed, contacted, own, fresh] = [
      redditName('twice'),
      redditName('Suppressed'),
      redditName('contacted'),
      redditName('own'),
      redditName('fresh'),
    ];
    const first = await buildLead(t.ctx.db, project.id, { author: twice });
    const second = await buildLead(t.ctx.db, project.id, { author: twice });
    const bySuppressed = await buildLead(t.ctx.db, project.id, { author: suppressed });
    const byContacted = await buildLead(t.ctx.db, project.id, { author: contacted });
    const byOwn = await buildLead(t.ctx.db, project.id, { author: own });
    const byFresh = await buildLead(t.ctx.db, project.id, { author: fresh });
    const deleted = await buildLead(t.ctx.db, project.id, { author: '[deleted]' });
    await t.ctx.db.insert(suppressions).values({
      ownerUserId: project.owner.id,
      usernameKey: suppressed.toLowerCase(),
      username: suppressed,
      reason: 'refusal',
      createdAt: new Date(),
    });
    // Sent from another project of the same workspace.
    await buildDm(t.ctx.db, sibling.id, { recipientUsername: contacted, state: 'sent' });
    await t.ctx.db.insert(redditAccounts).values({
      projectId: project.id,
      ownerUserId: project.owner.id,
      redditUsername: own.toUpperCase(),
    });

    const res = await generateForPosts(project, [
      first.id,
      second.id,
      bySuppressed.id,
      byContacted.id,
      byOwn.id,
      byFresh.id,
      deleted.id,
    ]);
    expect(res.statusCode).toBe(200);
    const body: TGenerateDmsResponse = res.json();
    expect(body.generated_messages.map((d) => d.recipient_username)).toEqual([twice, fresh]);
    expect(body.skipped.map((s) => [s.id, s.reason])).toEqual([
      [second.id, 'already_has_dm'],
      [bySuppressed.id, 'suppressed'],
      [byContacted.id, 'already_contacted'],
      [byOwn.id, 'own_account'],
      [deleted.id, 'author_deleted'],
    ]);
    expect(body.skipped[1]).toMatchObject({
      recipient_username: suppressed,
      detail: `u/${suppressed} is on your do-not-contact list`,
    });

    // Asked again: the authors written to now have a DM in the project.
    const again = await generateForPosts(project, [byFresh.id]);
    expect(again.json().skipped).toEqual([
      {
        id: byFresh.id,
        recipient_username: fresh,
        reason: 'already_has_dm',
        detail: `u/${fresh} already has a DM in this project`,
      },
    ]);
    expect(await listDms(project)).toHaveLength(2);
  });

  it('writes no DM about a post or comment older than DM_EXPIRY_DAYS (14): it would expire unsent', async () => {
    const project = await newProject();
    const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);
    const [poster, commenter, recent] = [redditName('poster'), redditName('commenter'), redditName('recent')];
    const old = await buildLead(t.ctx.db, project.id, { author: poster, itemCreatedAt: daysAgo(15) });
    const fresh = await buildLead(t.ctx.db, project.id, { author: recent, itemCreatedAt: daysAgo(13) });
    const oldComment = await buildLead(t.ctx.db, project.id, {
      kind: 'comment',
      author: commenter,
      itemCreatedAt: daysAgo(15),
    });
    const writeDm = vi.spyOn(t.ctx.ai, 'writeDm');

    const res = await generateForPosts(project, [old.id, fresh.id]);
    expect(res.statusCode).toBe(200);
    const body: TGenerateDmsResponse = res.json();
    expect(body.generated_messages.map((d) => d.recipient_username)).toEqual([recent]);
    expect(body.skipped).toEqual([
      {
        id: old.id,
        recipient_username: poster,
        reason: 'lead_too_old',
        detail: `u/${poster}'s post or comment is too old to message: a DM about it would expire unsent`,
      },
    ]);
    const fromComment = await post(project, '/api/v1/generate-dm-from-comment', {
      project_id: project.id,
      id: oldComment.id,
      content: 'ignored',
    });
    expect(fromComment.statusCode).toBe(200);
    expect(fromComment.json()).toMatchObject({
      generated_messages: [],
      skipped: [{ id: oldComment.id, recipient_username: commenter, reason: 'lead_too_old' }],
    });
    // The AI engine was asked only about the recent post.
    expect(writeDm).toHaveBeenCalledTimes(1);
    expect((await listDms(project)).map((d) => d.recipient_username)).toEqual([recent]);
  });

  it('a DM merely drafted in another project does not count as contacted', async () => {
    const project = await newProject();
    const sibling = await newProject({ owner: project.owner });
    const author = redditName('drafted');
    await buildDm(t.ctx.db, sibling.id, { recipientUsername: author, state: 'approved' });
    const lead = await buildLead(t.ctx.db, project.id, { author });
    const res = await generateForPosts(project, [lead.id]);
    expect(res.json().generated_messages).toHaveLength(1);
  });

  it('refuses without product information, and reports the engine failing', async () => {
    const bare = await newProject({ productInfo: false });
    const lead = await buildLead(t.ctx.db, bare.id, { author: redditName() });
    const refused = await generateForPosts(bare, [lead.id]);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ detail: PRODUCT_INFO_MISSING, code: 'product_info_missing' });

    const project = await newProject();
    const failing = await buildLead(t.ctx.db, project.id, { author: redditName() });
    vi.spyOn(t.ctx.ai, 'writeDm').mockRejectedValue(new AiError('timeout', 'The model did not answer'));
    const failed = await generateForPosts(project, [failing.id]);
    expect(failed.statusCode).toBe(502);
    expect(failed.json()).toMatchObject({
      detail: DM_TEXTS.generateFailed,
      code: 'dm_generation_failed',
      failed: [{ id: failing.id, detail: 'The model did not answer' }],
    });
    expect(await listDms(project)).toEqual([]);
  });

  it('answers 404 for a post of another project or a dismissed one, 400 for too many', async () => {
    const project = await newProject();
    const other = await newProject();
    const foreign = await buildLead(t.ctx.db, other.id, { author: redditName() });
    const res = await generateForPosts(project, [foreign.id]);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Post not found', code: 'not_found' });

    const dismissed = await buildLead(t.ctx.db, project.id, {
      author: redditName(),
      dismissedAt: new Date(),
    });
    expect((await generateForPosts(project, [dismissed.id])).statusCode).toBe(404);

    const many = await Promise.all(
      Array.from({ length: 21 }, () => buildLead(t.ctx.db, project.id, { author: redditName() })),
    );
    const tooMany = await generateForPosts(
      project,
      many.map((l) => l.id),
    );
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json()).toMatchObject({ detail: 'At most 20 posts at a time', code: 'validation_error' });
  });
});

describe('editing DMs', () => {
  it('saves an edit, keeps it as one message example per DM, and drops the example when reverted', async () => {
    const project = await newProject();
    const dm = await buildDm(t.ctx.db, project.id, { recipientUsername: redditName() });
    const update = (text: string) =>
      post(project, '/api/v1/update-dm-messages', { messages: [{ id: dm.id, message_content: text }] });

    // Saved as generated: nothing to learn from.
    const same = await update(dm.originalContent);
    expect(same.statusCode).toBe(200);
    expect(await examplesOf(dm.id)).toEqual([]);
    expect((await dmRow(dm.id)).editedAt).toBeNull();

    const first = await update('Hey! Saw your post about CRMs. Happy to show you ours, no pressure.');
    expect(first.statusCode).toBe(200);
    expect(first.json().messages[0]).toMatchObject({
      id: dm.id,
      message_content: 'Hey! Saw your post about CRMs. Happy to show you ours, no pressure.',
      original_content: dm.originalContent,
      edited: true,
      state: 'approved',
    });
    expect((await dmRow(dm.id)).editedAt).not.toBeNull();
    const [example] = await examplesOf(dm.id);
    expect(example).toMatchObject({
      projectId: project.id,
      exampleType: 'user_approved',
      finalMessage: 'Hey! Saw your post about CRMs. Happy to show you ours, no pressure.',
      originalGenerated: dm.originalContent,
      originalContext: { source_type: 'post', source_id: dm.leadId },
      postTitle: dm.postTitle,
      postContent: dm.postContent,
      subreddit: dm.subreddit,
    });

    await update('Second thought: want a quick demo of our CRM?');
    const examples = await examplesOf(dm.id);
    expect(examples).toHaveLength(1);
    expect(examples[0]).toMatchObject({
      id: example!.id,
      finalMessage: 'Second thought: want a quick demo of our CRM?',
    });

    const reverted = await update(dm.originalContent);
    expect(reverted.json().messages[0].edited).toBe(false);
    expect(await examplesOf(dm.id)).toEqual([]);
  });

  it('refuses an empty or too long text with a clear 400, and changes nothing', async () => {
    const project = await newProject();
    const dm = await buildDm(t.ctx.db, project.id, { recipientUsername: redditName() });
    const tooLong = await post(project, '/api/v1/update-dm-messages', {
      messages: [{ id: dm.id, message_content: 'x'.repeat(DM_MAX_LENGTH + 1) }],
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json()).toMatchObject({ detail: DM_TOO_LONG, code: 'validation_error' });
    const empty = await post(project, '/api/v1/update-dm-messages', {
      messages: [{ id: dm.id, message_content: '   ' }],
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ detail: DM_EMPTY, code: 'validation_error' });
    const exact = await post(project, '/api/v1/update-dm-messages', {
      messages: [{ id: dm.id, message_content: 'y'.repeat(DM_MAX_LENGTH) }],
    });
    expect(exact.statusCode).toBe(200);
    // Characters as a reader counts them: an emoji is one, though String.length says two.
    const emoji = await post(project, '/api/v1/update-dm-messages', {
      messages: [{ id: dm.id, message_content: `${'y'.repeat(DM_MAX_LENGTH - 2)}🙂🚀` }],
    });
    expect(emoji.statusCode, emoji.body).toBe(200);
    const emojiOver = await post(project, '/api/v1/update-dm-messages', {
      messages: [{ id: dm.id, message_content: '🙂'.repeat(DM_MAX_LENGTH + 1) }],
    });
    expect(emojiOver.json()).toMatchObject({ detail: DM_TOO_LONG, code: 'validation_error' });
  });

  it('says a batch naming no DM or post is empty (400), not that something is missing', async () => {
    const project = await newProject();
    for (const [path, body, detail] of [
      ['/api/v1/update-dm-messages', { messages: [] }, 'Name at least one DM'],
      ['/api/v1/approve-dm-messages', { items: [] }, 'Name at least one DM'],
      [
        '/api/v1/generate-dm-messages-for-selected',
        { project_id: project.id, post_ids: [] },
        'Select at least one post',
      ],
    ] as const) {
      const res = await post(project, path, body);
      expect(res.statusCode, path).toBe(400);
      expect(res.json(), path).toMatchObject({ detail, code: 'validation_error' });
    }
    // Another customer's project named beside no posts is still not there.
    const theirs = await newProject();
    const foreign = await post(project, '/api/v1/generate-dm-messages-for-selected', {
      project_id: theirs.id,
      post_ids: [],
    });
    expect(foreign.statusCode).toBe(404);
  });

  it('refuses to change a sent DM (409), and one foreign id makes the whole call 404', async () => {
    const project = await newProject();
    const other = await newProject();
    const open = await buildDm(t.ctx.db, project.id, { recipientUsername: redditName() });
    const sent = await buildDm(t.ctx.db, project.id, { recipientUsername: redditName(), state: 'sent' });
    const foreign = await buildDm(t.ctx.db, other.id, { recipientUsername: redditName() });

    const both = await post(project, '/api/v1/update-dm-messages', {
      messages: [
        { id: open.id, message_content: 'Changed' },
        { id: sent.id, message_content: 'Changed' },
      ],
    });
    expect(both.statusCode).toBe(409);
    expect(both.json()).toEqual({ detail: DM_SENT_READ_ONLY, code: 'dm_sent' });
    expect((await dmRow(open.id)).messageContent).toBe(open.messageContent);

    const mixed = await post(project, '/api/v1/update-dm-messages', {
      messages: [
        { id: open.id, message_content: 'Changed' },
        { id: foreign.id, message_content: 'Changed' },
      ],
    });
    expect(mixed.statusCode).toBe(404);
    expect(mixed.json()).toEqual({ detail: 'DM not found', code: 'not_found' });

    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/dm-messages/${sent.id}`,
      headers: project.owner.auth,
    });
    expect(del.statusCode).toBe(409);
    const regen = await post(project, `/api/v1/dm-messages/${sent.id}/regenerate`);
    expect(regen.statusCode).toBe(409);
    expect(regen.json().code).toBe('dm_sent');
  });

  it('approves DMs with their text, or takes them back to draft', async () => {
    const project = await newProject();
    const a = await buildDm(t.ctx.db, project.id, { recipientUsername: redditName(), state: 'approved' });
    const b = await buildDm(t.ctx.db, project.id, { recipientUsername: redditName(), state: 'draft' });
    const res = await post(project, '/api/v1/approve-dm-messages', {
      items: [
        { id: a.id, message_content: a.messageContent, approved: false },
        { id: b.id, message_content: 'Approved with a tweak', approved: true },
      ],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().messages.map((m: TDmMessage) => [m.state, m.approved])).toEqual([
      ['draft', false],
      ['approved', true],
    ]);
    expect(await examplesOf(b.id)).toHaveLength(1);
    const twice = await post(project, '/api/v1/approve-dm-messages', {
      items: [
        { id: a.id, message_content: 'x', approved: true },
        { id: a.id, message_content: 'y', approved: true },
      ],
    });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().detail).toBe('Each DM may appear once');
  });

  it('deletes an unsent DM for good', async () => {
    const project = await newProject();
    const dm = await buildDm(t.ctx.db, project.id, { recipientUsername: redditName() });
    const url = `/api/v1/dm-messages/${dm.id}`;
    const res = await t.app.inject({ method: 'DELETE', url, headers: project.owner.auth });
    expect(res.statusCode).toBe(204);
    expect(await t.ctx.db.select().from(dmMessages).where(eq(dmMessages.id, dm.id))).toEqual([]);
    const again = await t.app.inject({ method: 'DELETE', url, headers: project.owner.auth });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ detail: 'DM not found', code: 'not_found' });
  });
});

describe('regenerating DMs', () => {
  it('writes the next variant, which becomes the new original', async () => {
    const project = await newProject();
    const lead = await buildLead(t.ctx.db, project.id, {
      author: redditName(),
      title: 'Which CRM for a two-person agency?',
      body: 'We keep losing track of follow-ups. Suggestions welcome.',
    });
    const [dm] = (await generateForPosts(project, [lead.id])).json().generated_messages as TDmMessage[];
    await post(project, '/api/v1/update-dm-messages', {
      messages: [{ id: dm!.id, message_content: 'My own words' }],
    });
    const res = await post(project, `/api/v1/dm-messages/${dm!.id}/regenerate`);
    expect(res.statusCode).toBe(200);
    const next: TDmMessage = res.json();
    expect(next.variant).toBe(1);
    expect(next.message_content).not.toBe('My own words');
    expect(next.message_content).not.toBe(dm!.message_content);
    expect(next.original_content).toBe(next.message_content);
    expect(next.edited).toBe(false);
    expect(next.edited_at).toBeNull();
    // The customer's edit stays as an example.
    expect(await examplesOf(dm!.id)).toHaveLength(1);
  });

  it('uses the text kept with the DM once the lead is gone; a profile must still be there', async () => {
    const project = await newProject();
    const lead = await buildLead(t.ctx.db, project.id, {
      kind: 'comment',
      author: redditName(),
      body: 'Any CRM that reminds me to invoice clients?',
    });
    const [dm] = (
      await post(project, '/api/v1/generate-dm-from-comment', { project_id: project.id, id: lead.id })
    ).json().generated_messages as TDmMessage[];
    await t.ctx.db.delete(leads).where(eq(leads.id, lead.id));
    const res = await post(project, `/api/v1/dm-messages/${dm!.id}/regenerate`);
    expect(res.statusCode).toBe(200);
    expect(res.json().variant).toBe(1);

    const orphan = await buildDm(t.ctx.db, project.id, {
      recipientUsername: redditName(),
      sourceType: 'comment',
      leadId: null,
      redditPostId: 'comment_t1_gone',
      commentContent: null,
    });
    const noComment = await post(project, `/api/v1/dm-messages/${orphan.id}/regenerate`);
    expect(noComment.statusCode).toBe(404);
    expect(noComment.json()).toEqual({ detail: DM_TEXTS.commentNotFound, code: 'not_found' });

    const profileDm = await buildDm(t.ctx.db, project.id, {
      recipientUsername: redditName(),
      sourceType: 'profile',
      leadId: null,
      profileId: null,
      redditPostId: 'profile_gone',
    });
    const noProfile = await post(project, `/api/v1/dm-messages/${profileDm.id}/regenerate`);
    expect(noProfile.statusCode).toBe(404);
    expect(noProfile.json()).toEqual({ detail: DM_TEXTS.profileNotFound, code: 'not_found' });
  });

  it('reports an engine failure and a repeated text with the spec texts', async () => {
    const project = await newProject();
    const dm = await buildDm(t.ctx.db, project.id, { recipientUsername: redditName() });
    const url = `/api/v1/dm-messages/${dm.id}/regenerate`;
    const spy = vi.spyOn(t.ctx.ai, 'regenerateDm');
    spy.mockRejectedValueOnce(new AiError('upstream_error', 'The model refused'));
    const failed = await post(project, url);
    expect(failed.statusCode).toBe(502);
    expect(failed.json()).toEqual({ detail: DM_TEXTS.regenerateFailed, code: 'regeneration_failed' });

    spy.mockImplementationOnce(async (request) => ({
      message_content: request.previous.message_content,
      recipient_username: dm.recipientUsername,
      reddit_post_id: dm.redditPostId,
      post_title: dm.postTitle,
      comment_content: null,
      subreddit: dm.subreddit,
      matched_keywords: dm.matchedKeywords,
      variant: 1,
    }));
    const repeated = await post(project, url);
    expect(repeated.statusCode).toBe(502);
    expect(repeated.json()).toEqual({ detail: DM_TEXTS.noNewContent, code: 'no_new_content' });
    expect((await dmRow(dm.id)).variant).toBe(0);
  });
});

describe('the list', () => {
  it("pages the project's DMs newest first, with their outcome", async () => {
    const project = await newProject();
    const old = await buildDm(t.ctx.db, project.id, {
      recipientUsername: redditName(),
      createdAt: new Date('2030-01-01T00:00:00Z'),
      state: 'failed',
      failedAt: new Date('2030-01-02T00:00:00Z'),
      outcomeCode: 'NOT_WHITELISTED_BY_USER_MESSAGE',
      outcomeReason: 'This user does not accept messages',
    });
    const newer = await buildDm(t.ctx.db, project.id, {
      recipientUsername: redditName(),
      createdAt: new Date('2030-01-03T00:00:00Z'),
      state: 'sent',
      sentAt: new Date('2030-01-03T01:00:00Z'),
    });
    const res = await t.app.inject({
      url: `/api/v1/dm-messages?project_id=${project.id}&limit=1`,
      headers: project.owner.auth,
    });
    expect(res.json()).toMatchObject({ total: 2, limit: 1, offset: 0 });
    expect(res.json().items[0]).toMatchObject({
      id: newer.id,
      sent: true,
      approved: true,
      sent_at: '2030-01-03T01:00:00.000Z',
    });
    const second = await t.app.inject({
      url: `/api/v1/dm-messages?project_id=${project.id}&limit=1&offset=1`,
      headers: project.owner.auth,
    });
    expect(second.json().items[0]).toMatchObject({
      id: old.id,
      state: 'failed',
      sent: false,
      outcome_code: 'NOT_WHITELISTED_BY_USER_MESSAGE',
      outcome_reason: 'This user does not accept messages',
    });
  });

  it('says which DMs go to someone on the do-not-contact list, with the reason a Send would be refused with', async () => {
    const project = await newProject();
    const other = await newProject();
    const [gone, byHand, free] = [redditName('Gone'), redditName('ByHand'), redditName('free')];
    // Reddit said the account does not exist: its DM failed and the person went on the list.
    const failed = await buildDm(t.ctx.db, project.id, {
      recipientUsername: gone,
      state: 'failed',
      outcomeCode: 'USER_DOESNT_EXIST',
      outcomeReason: "Reddit says that user doesn't exist",
    });
    await t.ctx.db.insert(suppressions).values({
      ownerUserId: project.owner.id,
      usernameKey: gone.toLowerCase(),
      username: gone,
      reason: 'user_doesnt_exist',
      createdAt: new Date(),
    });
    const draft = await buildDm(t.ctx.db, project.id, { recipientUsername: byHand });
    const open = await buildDm(t.ctx.db, project.id, { recipientUsername: free });
    // Added by hand afterwards, spelt otherwise; another workspace's list does not count.
    const added = await t.app.inject({
      method: 'POST',
      url: '/api/v1/do-not-contact',
      headers: project.owner.auth,
      payload: { usernames: [byHand.toUpperCase()] },
    });
    expect(added.statusCode).toBe(200);
    const elsewhere = await t.app.inject({
      method: 'POST',
      url: '/api/v1/do-not-contact',
      headers: other.owner.auth,
      payload: { usernames: [free] },
    });
    expect(elsewhere.statusCode).toBe(200);

    const byId = new Map((await listDms(project)).map((d) => [d.id, d]));
    expect(byId.get(failed.id)!.do_not_contact).toEqual({
      reason: 'user_doesnt_exist',
      detail: `u/${gone} is on this workspace's do-not-contact list (Reddit said the account doesn't exist)`,
    });
    expect(byId.get(draft.id)!.do_not_contact).toEqual({
      reason: 'manual',
      detail: `u/${byHand} is on this workspace's do-not-contact list (added by hand)`,
    });
    expect(byId.get(open.id)!.do_not_contact).toBeNull();

    // A saved edit answers with the same.
    const saved = await post(project, '/api/v1/update-dm-messages', {
      messages: [{ id: draft.id, message_content: 'Hello again' }],
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().messages[0].do_not_contact).toMatchObject({ reason: 'manual' });
  });

  it("finds DMs by a part of the recipient's name in any case, and by state, a page at a time", async () => {
    const project = await newProject();
    const other = await newProject();
    const dm = (recipientUsername: string, state: TDmState, day: number) =>
      buildDm(t.ctx.db, project.id, {
        recipientUsername,
        state,
        createdAt: new Date(Date.UTC(2030, 0, day)),
      });
    const anna = await dm('Anna_Smith', 'approved', 1);
    const joanna = await dm('joanna_b', 'sent', 2);
    const hannah = await dm('HANNAH', 'approved', 3);
    await dm('bob_50%_off', 'failed', 4);
    await dm('carl', 'approved', 5);
    await buildDm(t.ctx.db, other.id, { recipientUsername: 'anna_elsewhere', state: 'approved' });
    const list = async (query: string) => {
      const res = await t.app.inject({
        url: `/api/v1/dm-messages?project_id=${project.id}${query}`,
        headers: project.owner.auth,
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as TDmList;
    };
    const ids = async (query: string) => (await list(query)).items.map((d) => d.id);

    expect(await ids('&search=ANN')).toEqual([hannah.id, joanna.id, anna.id]);
    expect(await ids('&search=%20nna%20')).toEqual([hannah.id, joanna.id, anna.id]);
    expect(await ids('&search=ann&state=approved')).toEqual([hannah.id, anna.id]);
    expect(await ids('&state=sent')).toEqual([joanna.id]);
    // %, _ and \ are themselves, not patterns.
    expect((await list('&search=%25')).total).toBe(1);
    expect((await list('&search=_5')).total).toBe(1);
    expect((await list('&search=%5C')).total).toBe(0);
    // Filtered pages: total counts the matches, ready_to_send still the whole project.
    const second = await list('&search=ann&limit=1&offset=1');
    expect(second).toMatchObject({ total: 3, limit: 1, offset: 1, ready_to_send: 3 });
    expect(second.items.map((d) => d.id)).toEqual([joanna.id]);
    expect(await list('&search=nobody')).toMatchObject({ items: [], total: 0, ready_to_send: 3 });
    // An empty search is no search.
    expect((await list('&search=')).total).toBe(5);
  });

  it('refuses an unknown state or a search too long with a 400 naming it', async () => {
    const project = await newProject();
    for (const [query, detail] of [
      [
        'state=delivered',
        'state must be one of draft, approved, queued, sending, sent, failed, unknown, expired',
      ],
      ['state=', 'state must be one of draft, approved, queued, sending, sent, failed, unknown, expired'],
      [`search=${'a'.repeat(41)}`, 'search must be at most 40 characters'],
    ]) {
      const res = await t.app.inject({
        url: `/api/v1/dm-messages?project_id=${project.id}&${query}`,
        headers: project.owner.auth,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ detail, code: 'validation_error' });
    }
  });

  it('counts the approved DMs of the whole project, those Send All DMs would queue, on every page', async () => {
    const project = await newProject();
    for (const state of ['approved', 'approved', 'queued', 'sent', 'draft'] as const)
      await buildDm(t.ctx.db, project.id, { recipientUsername: redditName(), state });
    const res = await t.app.inject({
      url: `/api/v1/dm-messages?project_id=${project.id}&limit=1&offset=3`,
      headers: project.owner.auth,
    });
    expect(res.json()).toMatchObject({ total: 5, ready_to_send: 2 });
  });

  it('counts as ready only the DMs Send All would queue: one per person, none to someone listed, answered, contacted or queued to', async () => {
    const project = await newProject();
    const sibling = await newProject({ owner: project.owner });
    const stranger = await newProject();
    const [free, twice, listed, answered, contacted, queued, elsewhere] = [
      redditName('free'),
      redditName('twice'),
      redditName('listed'),
      redditName('answered'),
      redditName('contacted'),
      redditName('queued'),
      redditName('elsewhere'),
    ];
    for (const name of [free, twice, twice, listed, answered, contacted, queued, elsewhere])
      await buildDm(t.ctx.db, project.id, { recipientUsername: name });
    await t.ctx.db.insert(suppressions).values({
      ownerUserId: project.owner.id,
      usernameKey: listed.toLowerCase(),
      username: listed,
      reason: 'manual',
      createdAt: new Date(),
    });
    // From another project of the same workspace.
    await buildDm(t.ctx.db, sibling.id, {
      recipientUsername: answered,
      state: 'sent',
      repliedAt: new Date(),
    });
    await buildDm(t.ctx.db, sibling.id, { recipientUsername: contacted, state: 'sent' });
    await buildDm(t.ctx.db, sibling.id, { recipientUsername: queued, state: 'queued' });
    // Another workspace's list and DMs do not count.
    await t.ctx.db.insert(suppressions).values({
      ownerUserId: stranger.owner.id,
      usernameKey: elsewhere.toLowerCase(),
      username: elsewhere,
      reason: 'manual',
      createdAt: new Date(),
    });
    await buildDm(t.ctx.db, stranger.id, { recipientUsername: free, state: 'sent', repliedAt: new Date() });

    const res = await t.app.inject({
      url: `/api/v1/dm-messages?project_id=${project.id}`,
      headers: project.owner.auth,
    });
    expect(res.json()).toMatchObject({ total: 8, ready_to_send: 3 });
  });

  it("says which DMs go to someone who already answered the workspace, in the words of a Send's refusal", async () => {
    const project = await newProject();
    const sibling = await newProject({ owner: project.owner });
    const stranger = await newProject();
    const [answered, free] = [redditName('Answered'), redditName('free')];
    const draft = await buildDm(t.ctx.db, project.id, { recipientUsername: answered });
    const open = await buildDm(t.ctx.db, project.id, { recipientUsername: free });
    await buildDm(t.ctx.db, sibling.id, {
      recipientUsername: answered.toUpperCase(),
      recipientKey: answered.toLowerCase(),
      state: 'sent',
      repliedAt: new Date(),
    });
    // An answer to another workspace does not count.
    await buildDm(t.ctx.db, stranger.id, { recipientUsername: free, state: 'sent', repliedAt: new Date() });

    const byId = new Map((await listDms(project)).map((d) => [d.id, d]));
    const detail = `u/${answered} already answered a DM from this workspace`;
    expect(byId.get(draft.id)!.already_answered).toEqual({ detail });
    expect(byId.get(open.id)!.already_answered).toBeNull();

    // A saved edit answers with the same.
    const saved = await post(project, '/api/v1/update-dm-messages', {
      messages: [{ id: draft.id, message_content: 'Hello again' }],
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().messages[0].already_answered).toEqual({ detail });
  });

  /** A DM of the project about a post lead written `daysAgo` days before now (DM_EXPIRY_DAYS is 14). */
  async function dmAboutLeadOf(
    project: Project,
    daysAgo: number,
    values: Parameters<typeof buildDm>[2] = {},
  ) {
    const lead = await buildLead(t.ctx.db, project.id, {
      itemCreatedAt: new Date(Date.now() - daysAgo * 86_400_000),
    });
    return buildDm(t.ctx.db, project.id, {
      recipientUsername: redditName('lead'),
      leadId: lead.id,
      ...values,
    });
  }

  it("says which DMs are too old to send, a failed one too, in the words of a Send's refusal", async () => {
    const project = await newProject();
    const failedOld = await dmAboutLeadOf(project, 15, { state: 'failed', outcomeCode: 'compose_refused' });
    const approvedOld = await dmAboutLeadOf(project, 15);
    const queuedOld = await dmAboutLeadOf(project, 15, { state: 'queued' });
    const expired = await dmAboutLeadOf(project, 1, { state: 'expired' });
    const sentOld = await dmAboutLeadOf(project, 15, { state: 'sent' });
    const failedRecent = await dmAboutLeadOf(project, 13, { state: 'failed' });
    const approvedRecent = await dmAboutLeadOf(project, 13);

    const byId = new Map((await listDms(project)).map((d) => [d.id, d]));
    const tooOld = { detail: 'This DM expired with its lead and can no longer be sent' };
    for (const dm of [failedOld, approvedOld, queuedOld, expired])
      expect(byId.get(dm.id)!.lead_expired, dm.state).toEqual(tooOld);
    for (const dm of [sentOld, failedRecent, approvedRecent])
      expect(byId.get(dm.id)!.lead_expired, dm.state).toBeNull();
    // The list says so; the DM keeps its state (expire-dms expires the unsent ones, never a failed one).
    expect(byId.get(failedOld.id)!.state).toBe('failed');

    // A saved edit answers with the same.
    const saved = await post(project, '/api/v1/update-dm-messages', {
      messages: [{ id: failedOld.id, message_content: 'Hello again' }],
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().messages[0].lead_expired).toEqual(tooOld);
  });

  it('counts as ready no DM whose lead is already older than DM_EXPIRY_DAYS, which Send All leaves unsent', async () => {
    const project = await newProject();
    const first = new Date('2030-01-01T00:00:00Z');
    const later = new Date('2030-01-01T01:00:00Z');
    await dmAboutLeadOf(project, 13);
    await dmAboutLeadOf(project, 15);
    // Of two DMs to one person Send All queues one about a recent lead, whichever came first.
    const oldFirst = redditName('oldFirst');
    await dmAboutLeadOf(project, 15, { recipientUsername: oldFirst, createdAt: first });
    await dmAboutLeadOf(project, 1, { recipientUsername: oldFirst, createdAt: later });
    const recentFirst = redditName('recentFirst');
    await dmAboutLeadOf(project, 1, { recipientUsername: recentFirst, createdAt: first });
    await dmAboutLeadOf(project, 15, { recipientUsername: recentFirst, createdAt: later });
    // Both about leads too old: none.
    const bothOld = redditName('bothOld');
    await dmAboutLeadOf(project, 15, { recipientUsername: bothOld, createdAt: first });
    await dmAboutLeadOf(project, 16, { recipientUsername: bothOld, createdAt: later });

    const res = await t.app.inject({
      url: `/api/v1/dm-messages?project_id=${project.id}`,
      headers: project.owner.auth,
    });
    expect(res.json()).toMatchObject({ total: 8, ready_to_send: 3 });
  });

  it('counts a DM about a profile as ready by when the profile last matched, and one whose lead is gone by when it was written', async () => {
    const project = await newProject();
    const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000);
    for (const [n, ready] of [
      [13, true],
      [15, false],
    ] as const) {
      const profile = await buildProfile(t.ctx.db, project.id, { lastFoundAt: daysAgo(n) });
      await buildDm(t.ctx.db, project.id, {
        sourceType: 'profile',
        leadId: null,
        profileId: profile.id,
        recipientUsername: redditName(ready ? 'recentProfile' : 'oldProfile'),
      });
      await buildDm(t.ctx.db, project.id, {
        leadId: null,
        recipientUsername: redditName(ready ? 'recentGone' : 'oldGone'),
        createdAt: daysAgo(n),
      });
    }

    const res = await t.app.inject({
      url: `/api/v1/dm-messages?project_id=${project.id}`,
      headers: project.owner.auth,
    });
    expect(res.json()).toMatchObject({ total: 4, ready_to_send: 2 });
  });
});
