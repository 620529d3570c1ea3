import type { Corpus } from './corpus/corpus';
import { type RouteContext, type SimResponse, escapeHtml, simPage } from './http';
import { userStubs } from './listings';

/**
 * The www pages a browser opens from a permalink ("View on Reddit"): a post, a comment under its post, and
 * a user's profile. Real Reddit serves HTML at the same paths its API answers in JSON on oauth.reddit.com;
 * here they are plain pages that say they are simulated.
 */

const PAGE_ITEMS = 10;

function notFound(what: string): SimResponse {
  return simPage(404, 'reddit.com: page not found', `<h1>Sorry, this ${what} isn't here</h1>`);
}

const points = (n: number) => `${n} ${n === 1 ? 'point' : 'points'}`;
const dateOf = (createdSeconds: number) =>
  new Date(createdSeconds * 1000).toISOString().slice(0, 16).replace('T', ' ');
const userLink = (name: string) => `<a href="/user/${encodeURIComponent(name)}">u/${escapeHtml(name)}</a>`;

/** /r/{sub}/comments/{post id}/{slug}/ and, with a comment id after the slug, that comment under its post. */
export function postPage(corpus: Corpus, ctx: RouteContext): SimResponse {
  const [subName = '', postId = '', commentId] = ctx.params;
  const postStub = corpus.parseFullname(`t3_${postId.toLowerCase()}`, ctx.now);
  if (!postStub) return notFound('post');
  const post = corpus.post(postStub, ctx.now);
  if (post.subreddit.toLowerCase() !== subName.toLowerCase()) return notFound('post');
  let comment = '';
  if (commentId) {
    const stub = corpus.parseFullname(`t1_${commentId.toLowerCase()}`, ctx.now);
    const found = stub ? corpus.comment(stub, ctx.now) : undefined;
    if (!found || found.link_id !== post.name) return notFound('comment');
    comment = `
      <h2>Comment</h2>
      <article class="highlight" aria-label="Comment by u/${escapeHtml(found.author)}">
        <p class="meta">${userLink(found.author)} · ${points(found.score)} · ${dateOf(found.created_utc)} UTC</p>
        <p class="text">${escapeHtml(found.body)}</p>
      </article>`;
  }
  return simPage(
    200,
    `${post.title} : ${post.subreddit}`,
    `      <p class="meta">r/${escapeHtml(post.subreddit)} · posted by ${userLink(post.author)} · ${dateOf(post.created_utc)} UTC</p>
      <h1>${escapeHtml(post.title)}</h1>
      <article aria-label="Post"><p class="text">${escapeHtml(post.selftext)}</p></article>
      <p class="meta">${points(post.score)} · ${post.num_comments} comments</p>${comment}`,
  );
}

/** /user/{name}: the profile and what they wrote lately. */
export function userPage(corpus: Corpus, ctx: RouteContext): SimResponse {
  const user = corpus.users.get(ctx.params[0] ?? '');
  if (!user || user.deleted) return notFound('account');
  if (user.suspended) {
    return simPage(
      200,
      `u/${user.name}`,
      `      <h1>u/${escapeHtml(user.name)}</h1>\n      <p>This account has been suspended.</p>`,
    );
  }
  const days = Math.floor((ctx.now - user.createdMs) / 86_400_000);
  const posts = userStubs(corpus, user, 't3', ctx.now)
    .slice(0, PAGE_ITEMS)
    .map((stub) => corpus.post(stub, ctx.now))
    .map(
      (p) =>
        `<li><a href="${escapeHtml(p.permalink)}">${escapeHtml(p.title)}</a> <span class="meta">in r/${escapeHtml(p.subreddit)}</span></li>`,
    );
  const comments = userStubs(corpus, user, 't1', ctx.now)
    .slice(0, PAGE_ITEMS)
    .map((stub) => corpus.comment(stub, ctx.now))
    .map(
      (c) =>
        `<li><a href="${escapeHtml(c.permalink ?? '')}">${escapeHtml(c.link_title ?? '')}</a> <span class="meta">in r/${escapeHtml(c.subreddit)}</span></li>`,
    );
  const list = (items: string[]) =>
    items.length ? `<ul>\n${items.join('\n')}\n</ul>` : '<p>Nothing yet.</p>';
  return simPage(
    200,
    `u/${user.name}`,
    `      <h1>u/${escapeHtml(user.name)}</h1>
      <p class="meta">${days} days on Reddit · ${user.linkKarma} post karma · ${user.commentKarma} comment karma</p>
      ${user.description ? `<p>${escapeHtml(user.description)}</p>` : ''}
      <h2>Recent posts</h2>
      ${list(posts)}
      <h2>Recent comments</h2>
      ${list(comments)}`,
  );
}
