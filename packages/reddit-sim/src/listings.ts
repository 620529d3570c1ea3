import { type Corpus, LISTING_CAP, type SimSubreddit, type Stub, compareStubs } from './corpus/corpus';
import type { SimUser } from './corpus/users';
import { type RouteContext, type SimResponse, json, redditError } from './http';
import { searchPosts } from './search';
import type { RedditListing, RedditThing } from './types';

export const DEFAULT_LIMIT = 25;
export const MAX_LIMIT = 100;

export interface PageParams {
  limit: number;
  after?: string;
  before?: string;
}

export function pageParams(query: URLSearchParams): PageParams {
  const raw = Number(query.get('limit') ?? DEFAULT_LIMIT);
  const limit = Number.isFinite(raw) ? Math.min(MAX_LIMIT, Math.max(1, Math.floor(raw))) : DEFAULT_LIMIT;
  return { limit, after: query.get('after') || undefined, before: query.get('before') || undefined };
}

/** Slices a newest-first list the way Reddit does: `after` walks older, `before` walks newer, by fullname. */
export function paginate<T>(
  items: T[],
  nameOf: (item: T) => string,
  params: PageParams,
): { page: T[]; after: string | null; before: string | null } {
  let start = 0;
  let end = Math.min(items.length, params.limit);
  if (params.after) {
    const at = items.findIndex((i) => nameOf(i) === params.after);
    if (at < 0) return { page: [], after: null, before: null };
    start = at + 1;
    end = Math.min(items.length, start + params.limit);
  } else if (params.before) {
    const at = items.findIndex((i) => nameOf(i) === params.before);
    if (at < 0) return { page: [], after: null, before: null };
    end = at;
    start = Math.max(0, end - params.limit);
  }
  const page = items.slice(start, end);
  const first = page[0];
  const last = page[page.length - 1];
  return {
    page,
    after: last !== undefined && end < items.length ? nameOf(last) : null,
    before: first !== undefined && start > 0 ? nameOf(first) : null,
  };
}

export function listing<T, K extends string>(
  kind: K,
  data: T[],
  after: string | null,
  before: string | null,
): RedditListing<T, K> {
  const children: Array<RedditThing<K, T>> = data.map((d) => ({ kind, data: d }));
  return {
    kind: 'Listing',
    data: { after, before, dist: children.length, modhash: null, geo_filter: null, children },
  };
}

/** Resolves `a+b+c`; unknown names are skipped like Reddit does for multireddits, all unknown -> 404. */
export function resolveSubs(corpus: Corpus, spec: string): SimSubreddit[] | undefined {
  if (spec.toLowerCase() === 'all' || spec.toLowerCase() === 'popular') return corpus.subreddits;
  const subs = spec
    .split('+')
    .map((name) => corpus.subreddit(name))
    .filter((s): s is SimSubreddit => s !== undefined);
  return subs.length > 0 ? subs : undefined;
}

export function stubListing(corpus: Corpus, stubs: Stub[], ctx: RouteContext): SimResponse {
  const { page, after, before } = paginate(stubs, (s) => corpus.fullname(s), pageParams(ctx.query));
  const kind = stubs[0]?.kind ?? 't3';
  if (kind === 't1')
    return json(
      200,
      listing(
        't1',
        page.map((s) => corpus.comment(s, ctx.now)),
        after,
        before,
      ),
    );
  return json(
    200,
    listing(
      't3',
      page.map((s) => corpus.post(s, ctx.now)),
      after,
      before,
    ),
  );
}

export function subredditNew(corpus: Corpus, ctx: RouteContext, kind: 't1' | 't3'): SimResponse {
  const subs = resolveSubs(corpus, ctx.params[0] ?? '');
  if (!subs) return redditError(404);
  const stubs = corpus.mergedStubs(
    kind,
    subs.map((s) => s.index),
    ctx.now,
  );
  if (stubs.length === 0) return json(200, listing(kind, [], null, null));
  return stubListing(corpus, stubs, ctx);
}

export function subredditAbout(corpus: Corpus, ctx: RouteContext): SimResponse {
  const sub = corpus.subreddit(ctx.params[0] ?? '');
  if (!sub) return redditError(404);
  return json(200, { kind: 't5', data: corpus.about(sub, ctx.now) });
}

export function subredditSearch(corpus: Corpus, ctx: RouteContext): SimResponse {
  const q = ctx.query.get('q') ?? '';
  const subs = corpus.searchSubreddits(q);
  const { page, after, before } = paginate(subs, (s) => `t5_${s.id}`, pageParams(ctx.query));
  return json(
    200,
    listing(
      't5',
      page.map((s) => corpus.about(s, ctx.now)),
      after,
      before,
    ),
  );
}

export function search(corpus: Corpus, ctx: RouteContext, scope?: string): SimResponse {
  let subs = corpus.subreddits;
  const restrict = ['1', 'true', 'on'].includes((ctx.query.get('restrict_sr') ?? '').toLowerCase());
  if (scope !== undefined) {
    const resolved = resolveSubs(corpus, scope);
    if (!resolved) return redditError(404);
    if (restrict) subs = resolved;
  }
  const results = searchPosts(corpus, subs, ctx.query, ctx.now);
  if (results.length === 0) return json(200, listing('t3', [], null, null));
  return stubListing(corpus, results, ctx);
}

export function userAbout(corpus: Corpus, ctx: RouteContext): SimResponse {
  const user = corpus.users.get(ctx.params[0] ?? '');
  if (!user || user.deleted) return redditError(404);
  if (user.suspended) return json(200, { kind: 't2', data: { name: user.name, is_suspended: true } });
  return json(200, { kind: 't2', data: userData(user) });
}

export function userData(user: NonNullable<ReturnType<Corpus['users']['get']>>) {
  const created = Math.floor(user.createdMs / 1000);
  return {
    id: user.id,
    name: user.name,
    created,
    created_utc: created,
    comment_karma: user.commentKarma,
    link_karma: user.linkKarma,
    total_karma: user.commentKarma + user.linkKarma,
    is_suspended: user.suspended,
    is_gold: false,
    is_mod: false,
    verified: true,
    has_verified_email: true,
    icon_img: `https://www.redditstatic.com/avatars/defaults/v2/avatar_default_${user.index % 8}.png`,
  };
}

/** A user's own posts or comments: scans every subreddit's recent window for items they wrote. */
export function userItems(corpus: Corpus, ctx: RouteContext, kind: 't1' | 't3'): SimResponse {
  const user = corpus.users.get(ctx.params[0] ?? '');
  if (!user || user.deleted) return redditError(404);
  const stubs = userStubs(corpus, user, kind, ctx.now);
  if (stubs.length === 0) return json(200, listing(kind, [], null, null));
  return stubListing(corpus, stubs.slice(0, LISTING_CAP), ctx);
}

/** What a user wrote in every subreddit's recent window, newest first (none for suspended or seeded accounts). */
export function userStubs(corpus: Corpus, user: SimUser, kind: 't1' | 't3', now: number): Stub[] {
  const stubs: Stub[] = [];
  if (user.suspended || user.loginable) return stubs;
  for (const sub of corpus.subreddits) {
    const latest = corpus.latestIndex(kind, sub.index, now);
    for (let k = latest; k >= 0 && k > latest - LISTING_CAP; k--) {
      const stub: Stub = { kind, sub: sub.index, k, time: 0 };
      if (corpus.authorIndex(stub) === user.index) {
        stub.time = corpus.itemTime(kind, sub.index, k);
        stubs.push(stub);
      }
    }
  }
  return stubs.sort(compareStubs);
}

/** /api/info?id=t3_x,t1_y */
export function info(corpus: Corpus, ctx: RouteContext): SimResponse {
  const ids = (ctx.query.get('id') ?? '').split(',').filter(Boolean).slice(0, 100);
  const children: Array<RedditThing<string, unknown>> = [];
  for (const id of ids) {
    const stub = corpus.parseFullname(id, ctx.now);
    if (!stub) continue;
    children.push(
      stub.kind === 't3'
        ? { kind: 't3', data: corpus.post(stub, ctx.now) }
        : { kind: 't1', data: corpus.comment(stub, ctx.now) },
    );
  }
  return json(200, {
    kind: 'Listing',
    data: { after: null, before: null, dist: children.length, modhash: null, geo_filter: null, children },
  });
}
