import {
  redditErrorReason,
  ZRedditAccessTokenResponse,
  ZRedditCommentListing,
  ZRedditEmptyResponse,
  ZRedditErrorBody,
  ZRedditInfoListing,
  ZRedditJsonResponse,
  ZRedditMe,
  ZRedditMessageListing,
  ZRedditPostListing,
  ZRedditSubredditListing,
  ZRedditSubredditThing,
  ZRedditUserThing,
  type TRedditErrorBody,
} from '@threadreach/reddit-schemas';
import type { z } from 'zod';

/** One endpoint of Reddit's API as the client calls it, and the schema its answers are read with. */
export interface RedditEndpoint<T> {
  method: 'GET' | 'POST';
  /** Path pattern, e.g. `/r/{subreddits}/new`. */
  pattern: string;
  /** `METHOD pattern`: the name in statistics and errors. */
  label: string;
  /** Matches the paths of this endpoint (with or without a trailing slash or `.json`). */
  path: RegExp;
  schema: z.ZodType<T>;
}

function endpoint<T>(method: 'GET' | 'POST', pattern: string, schema: z.ZodType<T>): RedditEndpoint<T> {
  const body = pattern
    .split(/\{[a-z]+\}/)
    .map((part) => part.replace(/[.+?^$()|[\]\\]/g, '\\$&'))
    .join('[^/]+');
  return {
    method,
    pattern,
    label: `${method} ${pattern}`,
    path: new RegExp(`^${body}(?:\\.json)?/?$`, 'i'),
    schema,
  };
}

/** Every endpoint the product calls. */
export const REDDIT_ENDPOINTS = {
  accessToken: endpoint('POST', '/api/v1/access_token', ZRedditAccessTokenResponse),
  me: endpoint('GET', '/api/v1/me', ZRedditMe),
  subredditNew: endpoint('GET', '/r/{subreddits}/new', ZRedditPostListing),
  subredditComments: endpoint('GET', '/r/{subreddits}/comments', ZRedditCommentListing),
  search: endpoint('GET', '/search', ZRedditPostListing),
  subredditSearch: endpoint('GET', '/r/{subreddit}/search', ZRedditPostListing),
  subredditsSearch: endpoint('GET', '/subreddits/search', ZRedditSubredditListing),
  subredditAbout: endpoint('GET', '/r/{subreddit}/about', ZRedditSubredditThing),
  userAbout: endpoint('GET', '/user/{name}/about', ZRedditUserThing),
  userSubmitted: endpoint('GET', '/user/{name}/submitted', ZRedditPostListing),
  userComments: endpoint('GET', '/user/{name}/comments', ZRedditCommentListing),
  info: endpoint('GET', '/api/info', ZRedditInfoListing),
  inbox: endpoint('GET', '/message/inbox', ZRedditMessageListing),
  unread: endpoint('GET', '/message/unread', ZRedditMessageListing),
  messages: endpoint('GET', '/message/messages', ZRedditMessageListing),
  sent: endpoint('GET', '/message/sent', ZRedditMessageListing),
  compose: endpoint('POST', '/api/compose', ZRedditJsonResponse),
  readMessage: endpoint('POST', '/api/read_message', ZRedditEmptyResponse),
} as const;

export type RedditEndpointName = keyof typeof REDDIT_ENDPOINTS;

/** The endpoint a request went to, by method and path; undefined for endpoints the product does not call. */
export function redditEndpointOf(
  method: string,
  path: string,
): (typeof REDDIT_ENDPOINTS)[RedditEndpointName] | undefined {
  const upper = method.toUpperCase();
  return Object.values(REDDIT_ENDPOINTS).find((e) => e.method === upper && e.path.test(path));
}

/** What an answer says, read with its endpoint's schema (2xx) or as one of Reddit's error bodies (4xx). */
export type RedditAnswer<T> =
  | { kind: 'data'; value: T }
  | { kind: 'error'; status: number; body: TRedditErrorBody; reason: string | null }
  | { kind: 'invalid'; status: number; problem: string };

/**
 * The one place an answer's body is read: the transport, the API and the conformance check against
 * real recordings all go through it.
 */
export function parseRedditAnswer<T>(
  endpoint: RedditEndpoint<T>,
  status: number,
  text: string,
): RedditAnswer<T> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { kind: 'invalid', status, problem: `the body is not JSON (${text.slice(0, 60) || 'empty'})` };
  }
  if (status >= 400) {
    const body = ZRedditErrorBody.safeParse(json);
    if (!body.success) return { kind: 'invalid', status, problem: describeIssues(body.error) };
    return { kind: 'error', status, body: body.data, reason: redditErrorReason(body.data) };
  }
  const parsed = endpoint.schema.safeParse(json);
  if (!parsed.success) return { kind: 'invalid', status, problem: describeIssues(parsed.error) };
  return { kind: 'data', value: parsed.data };
}

/** The first few problems of a failed parse, each with its path (`data.children.3.data.title: ...`). */
export function describeIssues(error: z.ZodError): string {
  const issues = error.issues.flatMap((issue) => innermost(issue, []));
  const shown = issues.slice(0, 3).map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`);
  const more = issues.length > 3 ? ` (+${issues.length - 3} more)` : '';
  return `${shown.join('; ')}${more}`;
}

type Issue = z.core.$ZodIssue;

/** A union's own issue only says "Invalid input": report the option that got furthest instead. */
function innermost(issue: Issue, prefix: PropertyKey[]): Array<{ path: PropertyKey[]; message: string }> {
  const path = [...prefix, ...issue.path];
  if (issue.code === 'invalid_union' && issue.errors.length > 0) {
    const depth = (options: Issue[]) => Math.max(...options.map((o) => o.path.length));
    const furthest = issue.errors.reduce((best, option) => (depth(option) > depth(best) ? option : best));
    return furthest.flatMap((inner) => innermost(inner, path));
  }
  return [{ path, message: issue.message }];
}
