import { describe, expect, it } from 'vitest';
import { isRefusal } from './refusal';

/** What people write back: asking to be left alone, or anything else. */
const REFUSALS = [
  'stop',
  'STOP!!!',
  'Stop.',
  'please stop',
  'Please stop messaging me',
  'please stop messaging me',
  "not interested, don't contact me again",
  'Stop spamming me. Reported.',
  'stop the DMs please',
  'stop dm me',
  'Please remove me from whatever list this is. Do not message me again.',
  'No thanks. Please stop sending me DMs.',
  'Not interested',
  'not interested.',
  'Not really interested, thanks',
  "I'm not interested in this.",
  'Not interested, but thanks',
  'no thanks',
  'No thank you!',
  "I'm good, no thanks",
  'nope',
  'No.',
  "Don't message me",
  'dont dm me',
  'Do not DM me again',
  'don’t contact me',
  'never message me again',
  'Unsubscribe',
  'How do I unsubscribe from this?',
  'leave me alone',
  'Leave me alone please',
  'remove me',
  'Please take me off your list',
  'go away',
  'This is spam.',
  'Blocking you.',
  'opt me out',
  'I am no longer interested',
  'quit messaging me',
  'no more messages please',
  'please no more DMs',
  'pls stop',
  'plz stop',
  'spam',
  'Spam.',
  'Leave me be',
  'get lost',
  'cease and desist',
  'I do not want these messages',
  "I don't want any more DMs from you",
  'optout',
  'opt-out',
];

const NOT_REFUSALS = [
  'Oh nice, yes I am still looking! Can you send me a link?',
  'This sounds like exactly what I need. How much does it cost?',
  'Thanks for reaching out, does it work on mobile too?',
  'Interesting, is there a free trial?',
  'Yes! I have been searching for weeks. Tell me more.',
  'Thanks, but I already found something that works for me.',
  'What is the catch?',
  'Appreciate it, I will take a look when I have time.',
  "Don't stop, tell me more!",
  "I can't stop thinking about this problem, how much is it?",
  'Not interested in the enterprise plan but the free tier sounds good',
  'not interested in paying yearly, but monthly works',
  'Does it stop spam bots on my subreddit?',
  "We're a one-stop shop for agencies",
  'Feel free to message me on Discord instead',
  'Send me the link',
  'No worries, send it over',
  'I would stop by your booth',
  'Is it interesting for freelancers?',
  'Know anyone who is interested?',
  'Does it filter spam from my inbox?',
  'I quit my job last month, so this is timely',
  'No more manual invoices would be a dream',
  'I want to get lost in the data less, how does it help?',
  '',
];

describe('refusal detection', () => {
  it.each(REFUSALS)('%j is a refusal', (body) => {
    expect(isRefusal(body)).toBe(true);
  });

  it.each(NOT_REFUSALS)('%j is not a refusal', (body) => {
    expect(isRefusal(body)).toBe(false);
  });
});
