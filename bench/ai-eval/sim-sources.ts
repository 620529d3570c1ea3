import type { TDmSource } from '@threadreach/contract';

/**
 * DM sources for the harness, read from the simulator's listings: for a subreddit, one post, one
 * comment and one profile. The simulator has no profile bios, so a profile's bio is one of the
 * author's comments (said so in the results).
 */
const USER_AGENT = 'web:threadreach-bench:0.1.0 (by /u/threadreach)';

interface Listing<T> {
  data: { children: { data: T }[] };
}
interface Post {
  id: string;
  title: string;
  selftext: string;
  author: string;
  subreddit: string;
}
interface Comment {
  id: string;
  body: string;
  author: string;
  subreddit: string;
  link_title?: string;
}

export async function simToken(baseUrl: string, clientId: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/v1/access_token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${clientId}:bench-secret`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
      'user-agent': USER_AGENT,
    },
    body: 'grant_type=client_credentials',
  });
  if (!res.ok) throw new Error(`token: ${res.status}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

async function get<T>(baseUrl: string, token: string, path: string): Promise<T> {
  const res = await fetch(`${baseUrl}${path}`, {
    headers: { authorization: `bearer ${token}`, 'user-agent': USER_AGENT },
  });
  if (!res.ok) throw new Error(`${path}: ${res.status}`);
  return (await res.json()) as T;
}

function matched(text: string, keywords: string[]): string[] {
  const lower = text.toLowerCase();
  return keywords.filter((k) => lower.includes(k.toLowerCase())).slice(0, 5);
}

/** A post (preferring one that asks for something), a comment and a profile from one subreddit. */
export async function sourcesFrom(
  baseUrl: string,
  token: string,
  subreddit: string,
  keywords: string[],
): Promise<TDmSource[]> {
  const posts = await get<Listing<Post>>(baseUrl, token, `/r/${subreddit}/new?limit=50&raw_json=1`);
  const comments = await get<Listing<Comment>>(
    baseUrl,
    token,
    `/r/${subreddit}/comments?limit=50&raw_json=1`,
  );
  const asking = /\?|recommend|looking for|need/i;
  const post =
    posts.data.children.map((c) => c.data).find((p) => asking.test(p.title)) ?? posts.data.children[0]!.data;
  const long = comments.data.children.map((c) => c.data).filter((c) => c.body.length >= 40);
  const comment = long[0] ?? comments.data.children[0]!.data;
  const other = long.find((c) => c.author !== comment.author) ?? comment;
  return [
    {
      source_type: 'post',
      id: post.id,
      title: post.title,
      content: post.selftext,
      author: post.author,
      subreddit: post.subreddit,
      matched_keywords: matched(`${post.title} ${post.selftext}`, keywords),
    },
    {
      source_type: 'comment',
      id: comment.id,
      content: comment.body,
      post_title: comment.link_title ?? '',
      author: comment.author,
      subreddit: comment.subreddit,
      matched_keywords: matched(comment.body, keywords),
    },
    {
      source_type: 'profile',
      id: other.author,
      reddit_username: other.author,
      bio_content: other.body,
      matched_keywords: matched(other.body, keywords),
    },
  ];
}
