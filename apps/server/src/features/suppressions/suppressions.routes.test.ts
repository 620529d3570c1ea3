import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DO_NOT_CONTACT_IMPORT_MAX_LINES,
  type TDoNotContactEntry,
  type TImportDoNotContactResponse,
} from '@threadreach/contract';
import { fixedClock } from '../../test/clock.test-support';
import { buildProject, buildUser, type TestUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { dmMessages } from '../dms/dms.table';
import { insertDm } from '../replies/replies.test-support';
import { isRecipientBlocked, suppressRecipient } from './index';

let t: TestApp;
const clock = fixedClock(Date.UTC(2026, 2, 2, 9));

beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(() => t.close());

const URL = '/api/v1/do-not-contact';
const add = (u: TestUser, usernames: string[], note?: string) =>
  t.app.inject({
    method: 'POST',
    url: URL,
    headers: u.auth,
    payload: { usernames, ...(note ? { note } : {}) },
  });
const importCsv = (u: TestUser, csv: string) =>
  t.app.inject({ method: 'POST', url: `${URL}/import`, headers: u.auth, payload: { csv } });
const remove = (u: TestUser, name: string) =>
  t.app.inject({ method: 'DELETE', url: `${URL}/${encodeURIComponent(name)}`, headers: u.auth });
const list = async (u: TestUser, query = ''): Promise<{ items: TDoNotContactEntry[]; total: number }> =>
  (await t.app.inject({ url: `${URL}${query}`, headers: u.auth })).json();
const names = async (u: TestUser, query = '') => (await list(u, query)).items.map((e) => e.username);

describe('the do-not-contact list', () => {
  it('adds names as people paste them, once each, and lists the newest first', async () => {
    const user = await buildUser(t.ctx.db, t.config);
    const first = await add(user, ['u/Pixel_Pat', '/u/quiet_quinn', 'pixel_pat'], 'asked at a meetup');
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ added: ['Pixel_Pat', 'quiet_quinn'], already_listed: ['pixel_pat'] });
    clock.t += 60_000;
    expect((await add(user, ['QUIET_QUINN', 'late_lee'])).json()).toEqual({
      added: ['late_lee'],
      already_listed: ['QUIET_QUINN'],
    });
    const page = await list(user);
    expect(page.total).toBe(3);
    expect(page.items[0]).toEqual({
      username: 'late_lee',
      reason: 'manual',
      note: null,
      created_at: new Date(clock.t).toISOString(),
      removable: true,
    });
    expect(page.items.slice(1).map((e) => [e.username, e.note])).toEqual([
      ['Pixel_Pat', 'asked at a meetup'],
      ['quiet_quinn', 'asked at a meetup'],
    ]);
    expect(await names(user, '?search=QUI')).toEqual(['quiet_quinn']);
    expect(await names(user, '?search=_')).toHaveLength(3);
    expect(await names(user, '?search=%25')).toEqual([]);
    expect(await names(user, '?limit=1&offset=1')).toEqual(['Pixel_Pat']);
  });

  it('refuses what is not a Reddit user name', async () => {
    const user = await buildUser(t.ctx.db, t.config);
    const res = await add(user, ['fine_name', 'no spaces allowed']);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_error' });
    expect(res.json().detail).toContain('Invalid Reddit user name');
    expect((await add(user, [])).statusCode).toBe(400);
    expect(await names(user)).toEqual([]);
  });

  it("is the caller's own workspace: another customer sees and removes nothing of it", async () => {
    const owner = await buildUser(t.ctx.db, t.config);
    const other = await buildUser(t.ctx.db, t.config);
    await add(owner, ['private_pete']);
    expect(await names(other)).toEqual([]);
    expect((await remove(other, 'private_pete')).statusCode).toBe(404);
    expect(await names(owner)).toEqual(['private_pete']);
  });

  it('keeps people who asked not to be contacted; other entries can be removed', async () => {
    const user = await buildUser(t.ctx.db, t.config);
    const at = new Date(clock.now());
    await suppressRecipient(t.ctx.db, user.id, { username: 'Angry_Al', reason: 'refusal', note: null }, at);
    await suppressRecipient(
      t.ctx.db,
      user.id,
      { username: 'closed_dms', reason: 'not_whitelisted', note: null },
      at,
    );
    await add(user, ['by_hand']);

    const refused = await remove(user, 'u/angry_al');
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      code: 'permanent_suppression',
      detail: 'u/Angry_Al asked not to be contacted again, so they stay on the do-not-contact list.',
    });
    expect((await list(user)).items.find((e) => e.username === 'Angry_Al')).toMatchObject({
      reason: 'refusal',
      removable: false,
    });
    expect((await remove(user, 'closed_dms')).statusCode).toBe(204);
    expect((await remove(user, 'BY_HAND')).statusCode).toBe(204);
    expect((await remove(user, 'by_hand')).json()).toEqual({
      code: 'not_found',
      detail: 'Not on the do-not-contact list',
    });
    expect(await names(user)).toEqual(['Angry_Al']);
  });

  it('makes an entry permanent when that person later refuses', async () => {
    const user = await buildUser(t.ctx.db, t.config);
    await add(user, ['changes_mind'], 'from the old CRM');
    const at = new Date(clock.now());
    const refusal = { username: 'changes_mind', reason: 'refusal' as const, note: 'Replied: "stop"' };
    expect(await suppressRecipient(t.ctx.db, user.id, refusal, at)).toBe(true);
    expect(await suppressRecipient(t.ctx.db, user.id, refusal, at)).toBe(false);
    const notWhitelisted = { username: 'changes_mind', reason: 'not_whitelisted' as const, note: null };
    expect(await suppressRecipient(t.ctx.db, user.id, notWhitelisted, at)).toBe(false);
    expect((await list(user)).items).toEqual([
      expect.objectContaining({ username: 'changes_mind', reason: 'refusal', note: 'Replied: "stop"' }),
    ]);
    expect((await remove(user, 'changes_mind')).statusCode).toBe(409);
  });
});

describe('adding someone with a DM queued to them', () => {
  it('fails their queued DMs at once, in this workspace only, and leaves the rest alone', async () => {
    const project = await buildProject(t.ctx.db, t.config);
    const elsewhere = await buildProject(t.ctx.db, t.config);
    const dm = (p: typeof project, recipient: string, state: 'queued' | 'sent' | 'approved') =>
      insertDm(t.ctx.db, { projectId: p.id, ownerUserId: p.owner.id, recipient, state });
    const queued = await dm(project, 'Queued_Quinn', 'queued');
    const sent = await dm(project, 'queued_quinn', 'sent');
    const approved = await dm(project, 'Queued_Quinn', 'approved');
    const other = await dm(project, 'other_olga', 'queued');
    const theirs = await dm(elsewhere, 'Queued_Quinn', 'queued');
    expect((await add(project.owner, ['u/queued_quinn'])).statusCode).toBe(200);

    const stateOf = async (id: string) =>
      (await t.ctx.db.select().from(dmMessages).where(eq(dmMessages.id, id)))[0]!;
    expect(await stateOf(queued.id)).toMatchObject({
      state: 'failed',
      outcomeCode: 'suppressed',
      outcomeReason: "u/Queued_Quinn is on this workspace's do-not-contact list (added by hand)",
      failedAt: new Date(clock.now()),
    });
    expect((await stateOf(sent.id)).state).toBe('sent');
    // Not queued: Send All and Send refuse it when asked.
    expect((await stateOf(approved.id)).state).toBe('approved');
    expect((await stateOf(other.id)).state).toBe('queued');
    expect((await stateOf(theirs.id)).state).toBe('queued');
  });
});

describe('importing a CSV file', () => {
  it('reads one name per line, with prefixes, and reports what it could not read', async () => {
    const user = await buildUser(t.ctx.db, t.config);
    await add(user, ['known_kim']);
    const csv = [
      'u/first_fay',
      '',
      '/u/known_kim',
      'not a name',
      'https://www.reddit.com/user/link_lou/',
      'first_fay',
    ].join('\r\n');
    const res = await importCsv(user, csv);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual<TImportDoNotContactResponse>({
      added: 2,
      already_listed: 2,
      invalid_count: 1,
      invalid: [{ line: 4, value: 'not a name', reason: 'Not a Reddit user name' }],
    });
    const page = await list(user);
    expect(page.items.map((e) => [e.username, e.reason]).sort()).toEqual([
      ['first_fay', 'import'],
      ['known_kim', 'manual'],
      ['link_lou', 'import'],
    ]);
  });

  it('reads the username column of a file with a header row', async () => {
    const user = await buildUser(t.ctx.db, t.config);
    const csv =
      '\uFEFFemail,Username,note\na@x.io,col_carl,"said ""no"", twice"\nb@x.io,,\nc@x.io,"u/col_cleo",\n';
    expect((await importCsv(user, csv)).json()).toEqual({
      added: 2,
      already_listed: 0,
      invalid_count: 1,
      invalid: [{ line: 3, value: 'b@x.io,,', reason: 'No user name in this row' }],
    });
    expect((await names(user)).sort()).toEqual(['col_carl', 'col_cleo']);
  });

  it('refuses a file without a username column, and one of too many lines', async () => {
    const user = await buildUser(t.ctx.db, t.config);
    const noColumn = await importCsv(user, 'email,name\na@x.io,Al\n');
    expect(noColumn.statusCode).toBe(400);
    expect(noColumn.json()).toEqual({
      code: 'no_username_column',
      detail: 'The file needs a "username" column, or one name per line',
    });
    const long = await importCsv(user, 'ab_c\n'.repeat(DO_NOT_CONTACT_IMPORT_MAX_LINES + 1));
    expect(long.statusCode).toBe(400);
    expect(long.json().code).toBe('too_many_lines');
    expect(await names(user)).toEqual([]);
  });

  it('takes a file of exactly the most lines, ending with a line break as files do', async () => {
    const user = await buildUser(t.ctx.db, t.config);
    const lines = Array.from({ length: DO_NOT_CONTACT_IMPORT_MAX_LINES }, (_, i) => `user_${i}`);
    const full = await importCsv(user, `${lines.join('\n')}\n`);
    expect(full.statusCode, full.body).toBe(200);
    expect(full.json()).toMatchObject({ added: DO_NOT_CONTACT_IMPORT_MAX_LINES });
  });

  it('answers an empty file with nothing added', async () => {
    const user = await buildUser(t.ctx.db, t.config);
    expect((await importCsv(user, '\n\n')).json()).toEqual({
      added: 0,
      already_listed: 0,
      invalid_count: 0,
      invalid: [],
    });
  });
});

describe('isRecipientBlocked', () => {
  it('blocks people on the list and people who answered an earlier DM, in their own workspace only', async () => {
    const project = await buildProject(t.ctx.db, t.config);
    const owner = project.owner.id;
    const other = await buildUser(t.ctx.db, t.config);
    await add(project.owner, ['Listed_Lin']);
    await insertDm(t.ctx.db, {
      projectId: project.id,
      ownerUserId: owner,
      recipient: 'Answer_Ann',
      repliedAt: new Date(),
    });
    await insertDm(t.ctx.db, { projectId: project.id, ownerUserId: owner, recipient: 'silent_sam' });

    expect(await isRecipientBlocked(t.ctx.db, owner, 'listed_lin')).toEqual({
      code: 'suppressed',
      reason: "u/listed_lin is on this workspace's do-not-contact list (added by hand)",
    });
    expect(await isRecipientBlocked(t.ctx.db, owner, 'answer_ann')).toEqual({
      code: 'replied',
      reason: 'u/answer_ann already answered a DM from this workspace',
    });
    expect(await isRecipientBlocked(t.ctx.db, owner, 'silent_sam')).toBeNull();
    expect(await isRecipientBlocked(t.ctx.db, other.id, 'listed_lin')).toBeNull();
    expect(await isRecipientBlocked(t.ctx.db, other.id, 'answer_ann')).toBeNull();
  });
});
