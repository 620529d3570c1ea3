import type { AppContext } from '../../context';
import {
  RedditApiError,
  RedditBudgetExhaustedError,
  RedditResponseShapeError,
  RedditUnavailableError,
} from '../../integrations/reddit';
import { readBackfill } from './backfill';
import {
  approvedSubredditUnion,
  authorsToEnrich,
  closeSearch,
  CursorMovedError,
  findCursor,
  insertCursor,
  loadProjectRules,
  openSearch,
  pendingBackfills,
  syncStreams,
  writePage,
  type CursorMove,
  type StreamKind,
} from './discovery.repository';
import type { DiscoveryCursorRow } from './discovery.table';
import { ENRICH_WINDOW_MS, enrichAuthors } from './enrich-authors';
import { matchItems } from './match-items';
import { scoreWithAi } from './score-with-ai';
import { compileMatcher, type Matcher, type ProjectRules } from './matcher';
import { LISTING_CAP, PAGE_LIMIT, RedditReader, type ListedItem } from './reddit-reader';

/** What one cycle did; `requests` counts every Reddit request it sent. */
export interface CycleReport {
  requests: number;
  /** New posts and comments read from the listings (matched or not). */
  itemsRead: number;
  leadsCreated: number;
  /** Streams that had more new items than one page holds. */
  gaps: number;
  /** Items lost past Reddit's 1000-item listing depth (an estimate from the rate of the items read). */
  missedItems: number;
  /** Multireddit groups read. */
  groups: number;
  backfills: number;
  authorsEnriched: number;
  /** Authors Reddit did not answer: read again by a later cycle, after the others. */
  authorsUnanswered: number;
  /** False when the budget ran out, a read went unanswered, or no search credential is enabled. */
  complete: boolean;
  /** When the budget ran out: the instant it frees. */
  retryAtMs: number | null;
  /** Reads Reddit did not answer (a 5xx or a broken connection), skipped while the cycle went on. */
  unanswered: { streams: StreamRef[]; backfills: string[] };
  /** When to read those again (the client's backoff); null when none, or at the last attempt. */
  againAtMs: number | null;
}

/** One group's posts (t3) or comments (t1). */
export interface StreamRef {
  groupNo: number;
  kind: StreamKind;
}

export interface CycleOptions {
  /** Told after each read's transaction committed. */
  onCommit?(event: { groupNo: number | null; kind: StreamKind; items: number; leadsCreated: number }): void;
  /**
   * A later try at the streams an earlier run left unanswered: only those are read (backfills and
   * authors still pending are done as in every cycle). `attempt` is its how-manyth try, 2 or more.
   */
  retry?: { streams: StreamRef[]; attempt: number };
}

/** Pages one stream may read per cycle: as deep as Reddit lists. The rest waits for the next cycle. */
const MAX_PAGES = LISTING_CAP / PAGE_LIMIT;
/** A cursor this quiet may name an item that left its listing; below this, an empty page means "nothing new". */
const STALE_CURSOR_MIN_MS = 10 * 60_000;
/** First backfills per cycle (each one to three requests). */
const BACKFILLS_PER_CYCLE = 10;
/** Authors read per cycle; the rest wait for a later one. */
const AUTHORS_PER_CYCLE = 20;

/**
 * One discovery cycle for every project: the approved subreddits as multireddit groups of at most 100,
 * each group's new posts and new comments read from where the last cycle stopped, each new item matched
 * once against every project, then first backfills of newly approved subreddits and the authors of new
 * leads. Each read is written in one transaction with its cursor, so a crash repeats work but never
 * loses or duplicates a lead. A spent budget ends the cycle early and says when it frees. A read Reddit
 * does not answer (a 5xx, a connection broken twice) is skipped and the cycle goes on; the report names
 * it and when to try it again. An author it does not answer waits for a later cycle.
 */
export async function runDiscoveryCycle(ctx: AppContext, options: CycleOptions = {}): Promise<CycleReport> {
  const report: CycleReport = {
    requests: 0,
    itemsRead: 0,
    leadsCreated: 0,
    gaps: 0,
    missedItems: 0,
    groups: 0,
    backfills: 0,
    authorsEnriched: 0,
    authorsUnanswered: 0,
    complete: true,
    retryAtMs: null,
    unanswered: { streams: [], backfills: [] },
    againAtMs: null,
  };
  const rules = await loadProjectRules(ctx.db);
  const { groups, shrunk } = await syncStreams(
    ctx.db,
    await approvedSubredditUnion(ctx.db),
    new Date(ctx.clock.now()),
  );
  report.groups = groups.size;
  if (groups.size === 0) return report;

  const retry = options.retry;
  const reader = await RedditReader.forSearch(ctx, { attempt: retry?.attempt ?? 1 });
  if (!reader.usable) {
    ctx.log.warn({ job: 'discovery-cycle' }, 'no enabled Reddit search credential: discovery is paused');
    return { ...report, complete: false };
  }
  const cycle: Cycle = { ctx, reader, matcher: compileMatcher(rules), report, options };
  try {
    for (const [groupNo, subs] of groups) {
      for (const kind of ['t3', 't1'] as const) {
        if (retry && !retry.streams.some((s) => s.groupNo === groupNo && s.kind === kind)) continue;
        await readStreamSafely(cycle, { groupNo, kind, subs, shrunk: shrunk.has(groupNo) });
      }
    }
    await runBackfills(cycle, rules);
    const since = new Date(ctx.clock.now() - ENRICH_WINDOW_MS);
    const authors = await authorsToEnrich(ctx.db, { limit: AUTHORS_PER_CYCLE, since });
    const enrichment = await enrichAuthors(ctx, reader, authors);
    report.authorsEnriched = enrichment.enriched;
    report.authorsUnanswered = enrichment.unanswered;
    // Authors left for later set no retry instant: a later cycle reads them.
    if (enrichment.interrupted || enrichment.unanswered > 0) report.complete = false;
  } catch (error) {
    if (error instanceof RedditBudgetExhaustedError) {
      report.complete = false;
      report.retryAtMs = error.retryAtMs;
    } else {
      throw error;
    }
  } finally {
    report.requests = reader.requests;
  }
  return report;
}

interface Cycle {
  ctx: AppContext;
  reader: RedditReader;
  matcher: Matcher;
  report: CycleReport;
  options: CycleOptions;
}

interface Stream {
  groupNo: number;
  kind: StreamKind;
  subs: string[];
  /** The group lost a subreddit this cycle. */
  shrunk: boolean;
}

/**
 * Notes a read Reddit did not answer: the cycle goes on without it, and it is tried again at the latest
 * backoff instant of the cycle's unanswered reads (none at the last attempt: the next interval reads it).
 */
function unanswered(cycle: Cycle, error: RedditUnavailableError, what: Record<string, unknown>): void {
  const { report } = cycle;
  report.complete = false;
  if (error.retryAtMs !== undefined) report.againAtMs = Math.max(report.againAtMs ?? 0, error.retryAtMs);
  cycle.ctx.log.warn({ job: 'discovery-cycle', ...what, err: error }, 'Reddit did not answer: read skipped');
}

/**
 * A stream Reddit refuses or answers oddly is skipped this cycle, and one it does not answer is tried
 * again soon; the others are still read.
 */
async function readStreamSafely(cycle: Cycle, stream: Stream): Promise<void> {
  try {
    await readStream(cycle, stream);
  } catch (error) {
    if (error instanceof RedditUnavailableError) {
      cycle.report.unanswered.streams.push({ groupNo: stream.groupNo, kind: stream.kind });
      unanswered(cycle, error, { group: stream.groupNo, kind: stream.kind });
      return;
    }
    if (
      error instanceof RedditApiError ||
      error instanceof RedditResponseShapeError ||
      error instanceof CursorMovedError
    ) {
      cycle.ctx.log.warn(
        { job: 'discovery-cycle', group: stream.groupNo, kind: stream.kind, err: error },
        'discovery stream skipped this cycle',
      );
      return;
    }
    throw error;
  }
}

/**
 * Reads a stream forward from its cursor: `before=<cursor>` gives the (up to) 100 items just newer than
 * it, oldest page first, so each page is written together with the cursor moved to its newest item. A
 * full page means more: the next page is read from there, up to Reddit's listing depth per cycle.
 */
async function readStream(cycle: Cycle, stream: Stream): Promise<void> {
  const { ctx, reader } = cycle;
  const cursor = await findCursor(ctx.db, stream.groupNo, stream.kind);
  if (!cursor) {
    // A new group starts at the present; its history comes from the first backfills.
    const top = (await reader.list(stream.kind, stream.subs, { limit: 1 })).items[0];
    await insertCursor(
      ctx.db,
      {
        groupNo: stream.groupNo,
        kind: stream.kind,
        beforeName: top?.name ?? null,
        newestCreatedAt: top ? new Date(top.createdUtc * 1000) : null,
      },
      new Date(ctx.clock.now()),
    );
    return;
  }
  if (!cursor.beforeName) {
    // The listing was empty when the group started: everything since then is new.
    await readFromTop(cycle, stream, cursor);
    return;
  }
  let before = cursor.beforeName;
  for (let pages = 0; pages < MAX_PAGES; pages++) {
    const page = await reader.list(stream.kind, stream.subs, { limit: PAGE_LIMIT, before });
    if (page.items.length === 0) {
      if (pages === 0 && mayHaveLostItsPlace(cycle.ctx, stream, cursor))
        await readFromTop(cycle, stream, cursor);
      return;
    }
    const newest = page.items[0]!;
    await commit(cycle, stream, page.items, {
      groupNo: stream.groupNo,
      kind: stream.kind,
      expectedBefore: before,
      next: { beforeName: newest.name, newestCreatedAt: new Date(newest.createdUtc * 1000) },
      missed: 0,
    });
    before = newest.name;
    if (page.items.length < PAGE_LIMIT) return;
    if (pages === 0) cycle.report.gaps++;
  }
}

/**
 * An empty `before` page also comes back when the cursor's item is no longer in the listing (deleted,
 * pushed past the 1000-item depth, or its subreddit left the group). That is checked by a read from the
 * top when the group just lost a subreddit, or when the cursor is old and was not checked for as long.
 */
function mayHaveLostItsPlace(ctx: AppContext, stream: Stream, cursor: DiscoveryCursorRow): boolean {
  if (stream.shrunk) return true;
  const now = ctx.clock.now();
  const staleMs = Math.max(STALE_CURSOR_MIN_MS, 3 * ctx.config.discovery.intervalSeconds * 1000);
  const newest = cursor.newestCreatedAt?.getTime() ?? 0;
  return now - newest >= staleMs && now - cursor.updatedAt.getTime() >= staleMs;
}

/**
 * Reads from the top of the listing back with `after` until an item no newer than the cursor, or
 * Reddit's 1000-item depth: then the items between are out of reach and counted as missed. Pages are
 * written as they come; the cursor moves to the top only at the end, so an interrupted read is repeated.
 */
async function readFromTop(cycle: Cycle, stream: Stream, cursor: DiscoveryCursorRow): Promise<void> {
  const { reader, report } = cycle;
  const boundary = cursor.beforeName
    ? (cursor.newestCreatedAt?.getTime() ?? 0) / 1000
    : cursor.updatedAt.getTime() / 1000;
  let after: string | null = null;
  let top: ListedItem | null = null;
  let oldestNew: ListedItem | null = null;
  let fresh = 0;
  let seen = 0;
  let reached = false;
  for (let pages = 0; pages < MAX_PAGES && !reached; pages++) {
    const page = await reader.list(stream.kind, stream.subs, { limit: PAGE_LIMIT, after });
    top ??= page.items[0] ?? null;
    seen += page.items.length;
    const newer: ListedItem[] = [];
    for (const item of page.items) {
      // Same-second items may be on either side of the cursor: reading one twice does no harm.
      if (item.name === cursor.beforeName || item.createdUtc < boundary) {
        reached = true;
        break;
      }
      newer.push(item);
    }
    if (newer.length > 0) {
      await commit(cycle, stream, newer, null);
      fresh += newer.length;
      oldestNew = newer[newer.length - 1]!;
    }
    after = page.after ?? page.items[page.items.length - 1]?.name ?? null;
    if (page.items.length < PAGE_LIMIT || !page.after) break;
  }
  const capped = !reached && seen >= LISTING_CAP;
  const missed = capped && top && oldestNew ? estimateMissed(fresh, top, oldestNew, boundary) : 0;
  if (fresh > PAGE_LIMIT || capped) report.gaps++;
  report.missedItems += missed;
  await commit(cycle, stream, [], {
    groupNo: stream.groupNo,
    kind: stream.kind,
    expectedBefore: cursor.beforeName,
    next: top ? { beforeName: top.name, newestCreatedAt: new Date(top.createdUtc * 1000) } : null,
    missed,
  });
}

/** Items older than the deepest one Reddit listed, at the rate of those it did list. */
function estimateMissed(read: number, newest: ListedItem, oldest: ListedItem, boundary: number): number {
  const span = Math.max(1, newest.createdUtc - oldest.createdUtc);
  const gap = Math.max(0, oldest.createdUtc - boundary);
  return Math.max(1, Math.round((read * gap) / span));
}

async function commit(cycle: Cycle, stream: Stream, items: ListedItem[], cursor: CursorMove | null) {
  const { ctx, report } = cycle;
  const now = new Date(ctx.clock.now());
  const matched = await scoreWithAi(ctx, matchItems(cycle.matcher, items, now));
  const created = await writePage(
    ctx.db,
    { items: matched.items, leads: matched.leads, ...(cursor ? { cursor } : {}) },
    now,
  );
  report.itemsRead += items.length;
  report.leadsCreated += created.length;
  cycle.options.onCommit?.({
    groupNo: stream.groupNo,
    kind: stream.kind,
    items: items.length,
    leadsCreated: created.length,
  });
}

/**
 * First backfills of approved subreddits that never had one, for projects that look for something: each
 * project's own keywords searched in the subreddit (or its newest posts), matched for that project only.
 */
async function runBackfills(cycle: Cycle, rules: ProjectRules[]): Promise<void> {
  const { ctx, reader, report } = cycle;
  const byProject = new Map(rules.map((r) => [r.projectId, r]));
  if (byProject.size === 0) return;
  const pending = await pendingBackfills(ctx.db, BACKFILLS_PER_CYCLE, [...byProject.keys()]);
  const done = new Map<string, { startedAt: Date; posts: number; requests: number }>();
  try {
    for (const p of pending) {
      const projectRules = byProject.get(p.projectId)!;
      const startedAt = new Date(ctx.clock.now());
      const before = reader.requests;
      let listed: ListedItem[];
      try {
        listed = await readBackfill(reader, projectRules, p.name);
      } catch (error) {
        if (!(error instanceof RedditUnavailableError)) throw error;
        // Still pending: a later run backfills it.
        report.unanswered.backfills.push(p.name);
        unanswered(cycle, error, { backfill: p.name, projectId: p.projectId });
        continue;
      }
      const matched = await scoreWithAi(ctx, matchItems(compileMatcher([projectRules]), listed, startedAt));
      const created = await writePage(
        ctx.db,
        { items: matched.items, leads: matched.leads, backfilledSubredditIds: [p.subredditId] },
        startedAt,
      );
      report.backfills++;
      report.leadsCreated += created.length;
      cycle.options.onCommit?.({
        groupNo: null,
        kind: 't3',
        items: listed.length,
        leadsCreated: created.length,
      });
      const stats = done.get(p.projectId) ?? { startedAt, posts: 0, requests: 0 };
      stats.posts += matched.items.length;
      stats.requests += reader.requests - before;
      done.set(p.projectId, stats);
    }
  } finally {
    // Each project whose subreddits got their first backfill ran one search, for the statistics.
    for (const [projectId, s] of done) {
      const id = await openSearch(ctx.db, projectId, 'backfill', s.startedAt);
      await closeSearch(
        ctx.db,
        id,
        {
          status: 'completed',
          postsFound: s.posts,
          commentsFound: 0,
          profilesFound: 0,
          requests: s.requests,
        },
        new Date(ctx.clock.now()),
      );
      ctx.log.info({ job: 'discovery-cycle', projectId, posts: s.posts }, 'first backfill done');
    }
  }
}
