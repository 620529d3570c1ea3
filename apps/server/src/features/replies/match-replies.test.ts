import { describe, expect, it } from 'vitest';
import type { TRedditMessageListing } from '../../integrations/reddit';
import { baseSubject, inboxMessages, matchReplies, type SentDm } from './match-replies';
import { hasRecordings, recordedListing, RECORDINGS } from './replies.test-support';

/** The recordings redact the account that made them as this name. */
const ME = '<USERNAME>';
const s = (seconds: number) => seconds * 1000;

function dmTo(recipient: string, sentAtMs: number, subject = 'About your post'): Map<string, SentDm> {
  const key = recipient.toLowerCase();
  return new Map([[key, { id: `dm-${key}`, recipientKey: key, subject, sentAtMs }]]);
}

const matched = (listing: TRedditMessageListing, dms: Map<string, SentDm>) =>
  matchReplies(inboxMessages(listing), ME, dms).map((m) => [m.message.name, m.dm.id, m.evidence]);

describe.skipIf(!hasRecordings)(`replies in real Reddit answers (${RECORDINGS})`, () => {
  it('flattens a threaded box: each conversation, then its later messages', () => {
    const listing = recordedListing('asyncpraw.TestMessage.test_reply.json', 'messages');
    expect(inboxMessages(listing).map((m) => [m.name, m.author, m.firstMessageName])).toEqual([
      ['t4_42oz8wy', ME, null],
      ['t4_42p1cd0', ME, 't4_42oz8wy'],
      ['t4_42p5uzp', 'Lil_SpazBot', 't4_42oz8wy'],
      ['t4_42p7ikg', ME, 't4_42oz8wy'],
    ]);
  });

  it('finds the answer in a chat-era conversation we started, by its thread', () => {
    const listing = recordedListing('asyncpraw.TestMessage.test_reply.json', 'messages');
    // Our first message of the room, then theirs: 'hi'.
    expect(matched(listing, dmTo('Lil_SpazBot', s(1759948312)))).toEqual([
      ['t4_42p5uzp', 'dm-lil_spazbot', 'thread'],
    ]);
    // Written before our DM: not an answer to it.
    expect(matched(listing, dmTo('Lil_SpazBot', s(1759949400)))).toEqual([]);
  });

  it('finds a classic reply to our message inside their conversation, not their earlier message', () => {
    const listing = recordedListing('asyncpraw.TestInbox.test_messages.json', 'messages');
    // They wrote 'this is from pm' (…563), we answered (…600), they replied (…881).
    expect(matched(listing, dmTo('Lil_SpazTest', s(1750352600), 'this is from pm'))).toEqual([
      ['t4_30rw8tw', 'dm-lil_spaztest', 'thread'],
    ]);
  });

  it('finds a classic reply alone in a flat box (unread) by its `re:` subject', () => {
    const threaded = recordedListing('asyncpraw.TestInbox.test_messages.json', 'messages');
    const nested = threaded.data.children[0]!.data.replies;
    if (nested === '') throw new Error('the recording has no nested reply');
    const reply = nested.data.children.find((c) => c.data.author === 'Lil_SpazTest')!;
    const flat: TRedditMessageListing = { ...threaded, data: { ...threaded.data, children: [reply] } };
    expect(matched(flat, dmTo('Lil_SpazTest', s(1750352600), 'This is from PM'))).toEqual([
      ['t4_30rw8tw', 'dm-lil_spaztest', 'subject'],
    ]);
    expect(matched(flat, dmTo('Lil_SpazTest', s(1750352600), 'Another subject'))).toEqual([]);
  });

  it('takes a chat message after our DM as its answer, and one before it as not', () => {
    const unread = recordedListing('asyncpraw.TestInbox.test_unread.json', 'unread');
    const [message] = unread.data.children;
    expect(message!.data).toMatchObject({
      subject: '[direct chat room]',
      type: 'unknown',
      first_message_name: null,
    });
    expect(matched(unread, dmTo('Lil_SpazJoekp', s(1759948000)))).toEqual([
      ['t4_42oz8wy', 'dm-lil_spazjoekp', 'chat'],
    ]);
    expect(matched(unread, dmTo('Lil_SpazJoekp', s(1759948500)))).toEqual([]);
  });

  it("ignores Reddit's own messages, our sent box, and people we did not write to", () => {
    const messages = recordedListing('asyncpraw.TestInbox.test_messages.json', 'messages');
    const fromReddit = inboxMessages(messages).filter((m) => m.author === 'reddit');
    expect(fromReddit.length).toBeGreaterThan(0);
    expect(matched(messages, dmTo('reddit', 0))).toEqual([]);
    expect(matched(messages, dmTo('someone_else', 0))).toEqual([]);
    const sent = recordedListing('asyncpraw.TestInbox.test_sent.json', 'sent');
    expect(matched(sent, dmTo('Lil_SpazJoekp', 0))).toEqual([]);
  });
});

describe('subjects', () => {
  it('compare without re: prefixes, case or spacing', () => {
    expect(baseSubject('Re: re:  About   your post')).toBe('about your post');
    expect(baseSubject('re: [direct chat room]')).toBe('[direct chat room]');
  });
});
