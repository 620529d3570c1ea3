import { ZRedditMessageListing } from '@threadreach/reddit-schemas';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Corpus } from './corpus/corpus';
import { START, type TestSim, startTestSim } from './test-support';
import type { RedditListing, RedditMessage } from './types';

let t: TestSim;
let token: string;
const corpus = new Corpus(42, START);
const reachable = corpus.users.users.filter(
  (u) => !u.loginable && !u.deleted && !u.suspended && !u.refusesDms,
);

beforeEach(async () => {
  t = await startTestSim();
  token = (await t.userToken({ username: 'demo_founder' })).access_token;
});
afterEach(async () => {
  await t.sim.close();
});

/** Moves the clock and logs in again, since tokens last a day. */
async function later(ms: number): Promise<void> {
  t.clock.advance(ms);
  token = (await t.userToken({ username: 'demo_founder' })).access_token;
}

const compose = (to: string, tok = token, text = 'Hi! Saw your post, we built a tool for that.') =>
  t.post('/api/compose', { api_type: 'json', to, subject: 'About your post', text }, tok);

async function box(
  where: 'inbox' | 'messages' | 'sent' | 'unread',
  tok = token,
  sim = t,
): Promise<RedditListing<RedditMessage>> {
  const res = await sim.get(`/message/${where}?limit=100`, tok);
  expect(res.status).toBe(200);
  return ZRedditMessageListing.parse(await res.json());
}

describe('POST /api/compose', () => {
  it('sends a DM: Reddit success shape, recorded for inspection and in /message/sent', async () => {
    const to = reachable[0]!.name;
    const res = await compose(to);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ json: { errors: [], data: {} } });

    const received = t.sim.inspect.messages({ to });
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ from: 'demo_founder', to, subject: 'About your post' });
    expect(received[0]!.clientId).toBe('test-web-app');
    expect(Object.keys(t.sim.inspect.messagesByRecipient())).toEqual([to]);

    const sent = await box('sent');
    expect(sent.data.children).toHaveLength(1);
    const m = sent.data.children[0]!;
    expect(m.kind).toBe('t4');
    expect(m.data).toMatchObject({
      author: 'demo_founder',
      dest: to,
      subject: 'About your post',
      body: 'Hi! Saw your post, we built a tool for that.',
      first_message_name: null,
      parent_id: null,
      created_utc: START / 1000,
    });
    expect(m.data.name).toBe(`t4_${m.data.id}`);
  });

  it('USER_DOESNT_EXIST for unknown, deleted and suspended recipients', async () => {
    const deleted = corpus.users.users.find((u) => u.deleted)!;
    const suspended = corpus.users.users.find((u) => u.suspended && !u.loginable)!;
    for (const to of ['nobody_by_this_name_42', deleted.name, suspended.name]) {
      const body = await (await compose(to)).json();
      expect(body).toEqual({ json: { errors: [['USER_DOESNT_EXIST', "that user doesn't exist", 'to']] } });
    }
    expect(t.sim.inspect.messages()).toHaveLength(0);
  });

  it('NOT_WHITELISTED_BY_USER_MESSAGE for users who refuse DMs', async () => {
    const refuses = corpus.users.users.find((u) => u.refusesDms)!;
    const body = (await (await compose(refuses.name)).json()) as { json: { errors: string[][] } };
    expect(body.json.errors[0]?.[0]).toBe('NOT_WHITELISTED_BY_USER_MESSAGE');
    expect(body.json.errors[0]?.[2]).toBe('to');
  });

  it('RATELIMIT for a new account sending too fast, with minutes to wait', async () => {
    const fresh = (await t.userToken({ username: 'fresh_account' })).access_token;
    expect(await (await compose(reachable[0]!.name, fresh)).json()).toEqual({
      json: { errors: [], data: {} },
    });
    t.clock.advance(60_000);
    expect(await (await compose(reachable[1]!.name, fresh)).json()).toEqual({
      json: { errors: [], data: {} },
    });
    t.clock.advance(60_000);
    const limited = (await (await compose(reachable[2]!.name, fresh)).json()) as {
      json: { errors: string[][]; ratelimit: number };
    };
    expect(limited.json.errors[0]?.[0]).toBe('RATELIMIT');
    expect(limited.json.errors[0]?.[1]).toBe('you are doing that too much. try again in 58 minutes.');
    expect(limited.json.errors[0]?.[2]).toBe('ratelimit');
    expect(limited.json.ratelimit).toBe(58 * 60);
    t.clock.advance(58 * 60_000);
    const renewed = (await t.userToken({ username: 'fresh_account' })).access_token;
    expect(await (await compose(reachable[2]!.name, renewed)).json()).toEqual({
      json: { errors: [], data: {} },
    });
  });

  it('403 for a suspended sender, a token without privatemessages, or an app-only token', async () => {
    const suspended = (await t.userToken({ username: 'suspended_seller' })).access_token;
    const res = await compose(reachable[0]!.name, suspended);
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ message: 'Forbidden', error: 403 });

    const readOnly = (await t.userToken({ scopes: 'read identity' })).access_token;
    expect((await compose(reachable[0]!.name, readOnly)).status).toBe(403);
    expect((await compose(reachable[0]!.name, await t.appToken())).status).toBe(403);
    expect(t.sim.inspect.messages()).toHaveLength(0);
  });

  it('validates the form like Reddit', async () => {
    const res = await t.post(
      '/api/compose',
      { api_type: 'json', to: reachable[0]!.name, subject: '', text: 'x' },
      token,
    );
    expect(await res.json()).toEqual({
      json: { errors: [['NO_SUBJECT', 'please enter a subject', 'subject']] },
    });
  });
});

describe('replies', () => {
  it('arrive in the inbox after a delay, some asking to stop and some interested', async () => {
    const targets = reachable.slice(0, 30);
    for (const u of targets) expect((await compose(u.name)).status).toBe(200);
    expect((await box('inbox')).data.children).toHaveLength(0);

    t.clock.advance(2 * 60_000);
    expect((await box('inbox')).data.children).toHaveLength(0);

    await later(24 * 3600_000);
    const inbox = await box('inbox');
    const replies = inbox.data.children.map((c) => c.data);
    expect(replies.length).toBeGreaterThan(5);
    expect(replies.length).toBeLessThan(30);
    const sent = (await box('sent')).data.children.map((c) => c.data);
    for (const r of replies) {
      expect(r.dest).toBe('demo_founder');
      expect(r.subject).toBe('re: About your post');
      expect(r.new).toBe(true);
      const original = sent.find((s) => s.name === r.first_message_name);
      expect(original?.dest).toBe(r.author);
      expect(r.parent_id).toBe(original?.name);
      expect(r.created_utc).toBeGreaterThan(original!.created_utc);
    }
    const stops = replies.filter((r) => /stop|don't contact|do not message/i.test(r.body));
    const interested = replies.filter((r) => /link|cost|trial|tell me more|mobile/i.test(r.body));
    expect(stops.length).toBeGreaterThan(0);
    expect(interested.length).toBeGreaterThan(0);
    expect(t.sim.inspect.replies()).toHaveLength(replies.length);
  });

  it('are deterministic for the same seed', async () => {
    const other = await startTestSim();
    try {
      const otherToken = (await other.userToken({ username: 'demo_founder' })).access_token;
      for (const u of reachable.slice(0, 15)) {
        await compose(u.name);
        await other.post(
          '/api/compose',
          {
            api_type: 'json',
            to: u.name,
            subject: 'About your post',
            text: 'Hi! Saw your post, we built a tool for that.',
          },
          otherToken,
        );
      }
      await later(24 * 3600_000);
      other.clock.advance(24 * 3600_000);
      const otherToken2 = (await other.userToken({ username: 'demo_founder' })).access_token;
      const strip = (l: RedditListing<RedditMessage>) =>
        l.data.children.map((c) => [c.data.author, c.data.body, c.data.created_utc]);
      const otherInbox = (await (
        await other.get('/message/inbox?limit=100', otherToken2)
      ).json()) as RedditListing<RedditMessage>;
      expect(strip(await box('inbox'))).toEqual(strip(otherInbox));
    } finally {
      await other.sim.close();
    }
  });

  it('can be marked read', async () => {
    for (const u of reachable.slice(0, 10)) await compose(u.name);
    await later(24 * 3600_000);
    const unread = await box('unread');
    expect(unread.data.children.length).toBeGreaterThan(0);
    const first = unread.data.children[0]!.data.name;
    await t.post('/api/read_message', { id: first }, token);
    const after = await box('unread');
    expect(after.data.children.map((c) => c.data.name)).not.toContain(first);
    expect((await box('inbox')).data.children.find((c) => c.data.name === first)?.data.new).toBe(false);
  });
});

describe('chat-era messages (messageStyle: chat)', () => {
  it('show the chat room subject and thread the inbox under the first message', async () => {
    const chat = await startTestSim({ messageStyle: 'chat' });
    try {
      const login = async () => (await chat.userToken({ username: 'demo_founder' })).access_token;
      let tok = await login();
      for (const u of reachable.slice(0, 20)) {
        const res = await chat.post(
          '/api/compose',
          { api_type: 'json', to: u.name, subject: 'About your post', text: 'Hi!' },
          tok,
        );
        expect(await res.json()).toEqual({ json: { errors: [], data: {} } });
      }
      const sent = (await box('sent', tok, chat)).data.children.map((c) => c.data);
      expect(sent).toHaveLength(20);
      for (const m of sent) {
        expect(m).toMatchObject({ subject: '[direct chat room]', type: 'unknown', first_message_name: null });
        expect(m.replies).toBe('');
      }

      chat.clock.advance(24 * 3600_000);
      tok = await login();
      const threads = (await box('inbox', tok, chat)).data.children.map((c) => c.data);
      expect(threads.length).toBeGreaterThan(3);
      for (const root of threads) {
        // The conversation is listed by our own first message; the answer is nested under it.
        expect(root).toMatchObject({ author: 'demo_founder', parent_id: null, first_message_name: null });
        expect(root.replies).not.toBe('');
        if (root.replies === '') continue;
        for (const { kind, data: reply } of root.replies.data.children) {
          expect(kind).toBe('t4');
          expect(reply).toMatchObject({
            author: root.dest,
            dest: 'demo_founder',
            subject: '[direct chat room]',
            type: 'unknown',
            first_message_name: root.name,
            parent_id: root.name,
            new: true,
          });
        }
      }
      // /message/messages also lists the conversations nobody answered yet.
      const all = (await box('messages', tok, chat)).data.children.map((c) => c.data);
      expect(all).toHaveLength(20);
      expect(all.filter((m) => m.replies !== '')).toEqual(threads);

      // Unread is one item per message: the replies themselves.
      const unread = (await box('unread', tok, chat)).data.children.map((c) => c.data);
      expect(unread).toHaveLength(threads.length);
      expect(unread.every((m) => m.first_message_name !== null && m.author !== 'demo_founder')).toBe(true);
      await chat.post('/api/read_message', { id: unread[0]!.name }, tok);
      const again = (await box('inbox', tok, chat)).data.children.flatMap((c) =>
        c.data.replies === '' ? [] : c.data.replies.data.children.map((r) => r.data),
      );
      expect(again.find((m) => m.name === unread[0]!.name)?.new).toBe(false);
    } finally {
      await chat.sim.close();
    }
  });
});
