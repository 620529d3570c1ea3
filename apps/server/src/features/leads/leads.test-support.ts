import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/client';
import {
  redditAuthors,
  redditItems,
  type RedditAuthorRow,
  type RedditItemRow,
} from '../discovery/discovery.table';
import { leads, profiles, type LeadRow, type ProfileRow } from './leads.table';

const shortId = () => randomUUID().replace(/-/g, '').slice(0, 10);

/** A stored Reddit post (t3) or comment (t1), as discovery writes it. */
export async function buildItem(
  db: Db,
  overrides: Partial<RedditItemRow> & { kind?: 'post' | 'comment' } = {},
): Promise<RedditItemRow> {
  const kind = overrides.kind ?? 'post';
  const id = shortId();
  const subreddit = overrides.subreddit ?? 'saas';
  const [row] = await db
    .insert(redditItems)
    .values({
      name: `${kind === 'post' ? 't3' : 't1'}_${id}`,
      subreddit,
      author: 'someone',
      title: kind === 'post' ? `Looking for a tool ${id}` : `Thread ${id}`,
      body: 'Any recommendations for a CRM?',
      permalink: `/r/${subreddit}/comments/${id}/x/`,
      score: 3,
      createdAt: new Date('2030-01-01T00:00:00Z'),
      fetchedAt: new Date('2030-01-01T00:01:00Z'),
      ...overrides,
      kind,
    })
    .returning();
  return row!;
}

/**
 * A lead of the project, with its own item unless `item` is given; the item's author, subreddit and time
 * are the lead's.
 */
export async function buildLead(
  db: Db,
  projectId: string,
  overrides: Partial<Omit<LeadRow, 'kind'>> & {
    kind?: 'post' | 'comment';
    item?: RedditItemRow;
    title?: string;
    body?: string;
  } = {},
): Promise<LeadRow & { item: RedditItemRow }> {
  const { item: given, title, body, kind = 'post', ...values } = overrides;
  const createdAt = values.itemCreatedAt ?? given?.createdAt ?? new Date('2030-01-01T00:00:00Z');
  const item =
    given ??
    (await buildItem(db, {
      kind,
      createdAt,
      ...(values.author ? { author: values.author } : {}),
      ...(values.subreddit ? { subreddit: values.subreddit } : {}),
      ...(title !== undefined ? { title } : {}),
      ...(body !== undefined ? { body } : {}),
    }));
  const [row] = await db
    .insert(leads)
    .values({
      projectId,
      itemName: item.name,
      kind,
      author: item.author,
      subreddit: item.subreddit,
      matchedKeywords: ['crm'],
      matches: [{ keyword: 'crm', field: 'body', start: 26, end: 29 }],
      intentScore: 50,
      intentReasons: ['asks for a recommendation'],
      itemCreatedAt: createdAt,
      foundAt: new Date(createdAt.getTime() + 60_000),
      ...values,
    })
    .returning();
  return { ...row!, item };
}

/** What the shared author cache holds about a Reddit user. */
export async function buildAuthor(db: Db, overrides: Partial<RedditAuthorRow> & { name: string }) {
  const [row] = await db
    .insert(redditAuthors)
    .values({
      nameLower: overrides.name.toLowerCase(),
      accountCreatedAt: null,
      commentKarma: null,
      bio: '',
      fetchedAt: new Date('2030-01-01T00:00:00Z'),
      ...overrides,
    })
    .returning();
  return row!;
}

export async function buildProfile(
  db: Db,
  projectId: string,
  overrides: Partial<ProfileRow> = {},
): Promise<ProfileRow> {
  const at = overrides.lastFoundAt ?? new Date('2030-01-01T00:00:00Z');
  const [row] = await db
    .insert(profiles)
    .values({
      projectId,
      redditUsername: `user_${shortId()}`,
      matchedKeywords: ['crm'],
      intentScore: 50,
      intentReasons: ['asks for a recommendation'],
      foundAt: at,
      lastFoundAt: at,
      ...overrides,
    })
    .returning();
  return row!;
}

/** A fresh Reddit user name. */
export const redditName = (prefix = 'u') => `${prefix}_${shortId()}`;
