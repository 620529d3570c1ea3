import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../context';
import { fixedClock } from '../../test/clock.test-support';
import { buildProject } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { buildAuthor, buildLead, redditName } from '../leads/leads.test-support';
import { pruneExpiredLeads } from '../leads/retention.service';
import { authorsToEnrich, noteAuthorUnanswered } from './discovery.repository';
import { redditAuthors, redditAuthorsUnanswered } from './discovery.table';
import { pruneAuthorCache } from './prune-authors';
import { pruneAuthorsJob } from './prune-authors.job';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ env: { LEAD_RETENTION_DAYS: '90' } });
});
afterAll(() => t.close());

const DAY_MS = 86_400_000;
// Long before anything other suites store (lead retention's suite included): on PostgreSQL they share this
// database, and pruning is global.
const NOW = Date.parse('1999-06-01T00:00:00Z');
const daysAgo = (days: number) => new Date(NOW - days * DAY_MS);
const ctxNow = (): AppContext => ({ ...t.ctx, clock: fixedClock(NOW) });

async function authorsLeft(names: string[]) {
  const rows = await t.ctx.db
    .select({ name: redditAuthors.nameLower })
    .from(redditAuthors)
    .where(
      inArray(
        redditAuthors.nameLower,
        names.map((n) => n.toLowerCase()),
      ),
    );
  return new Set(rows.map((r) => r.name));
}

async function unansweredLeft(names: string[]) {
  const rows = await t.ctx.db
    .select({ name: redditAuthorsUnanswered.nameLower })
    .from(redditAuthorsUnanswered)
    .where(
      inArray(
        redditAuthorsUnanswered.nameLower,
        names.map((n) => n.toLowerCase()),
      ),
    );
  return new Set(rows.map((r) => r.name));
}

const lower = (...names: string[]) => new Set(names.map((n) => n.toLowerCase()));

describe('author cache pruning', () => {
  it('deletes profiles read before LEAD_RETENTION_DAYS that no lead names any more, and keeps the rest', async () => {
    const a = await buildProject(t.ctx.db, t.config);
    const b = await buildProject(t.ctx.db, t.config);
    // Read long ago, every lead of theirs gone: they go.
    const gone = [redditName('Gone'), redditName('gone'), redditName('gone'), redditName('gone')];
    for (const name of gone) await buildAuthor(t.ctx.db, { name, fetchedAt: daysAgo(200) });
    // Just past the retention: goes too.
    const edgeGone = redditName('edge');
    await buildAuthor(t.ctx.db, { name: edgeGone, fetchedAt: daysAgo(91) });
    // Read long ago but found again since by one project (the lead spells the name its own way): stays.
    const foundAgain = redditName('again');
    await buildAuthor(t.ctx.db, { name: foundAgain, fetchedAt: daysAgo(200) });
    await buildLead(t.ctx.db, b.id, { author: foundAgain.toUpperCase(), foundAt: daysAgo(3) });
    // A dismissed lead still shows who wrote it: stays.
    const dismissed = redditName('dismissed');
    await buildAuthor(t.ctx.db, { name: dismissed, fetchedAt: daysAgo(150) });
    await buildLead(t.ctx.db, a.id, { author: dismissed, foundAt: daysAgo(60), dismissedAt: daysAgo(50) });
    // No lead left (its project was deleted), but read within the retention: stays until it is older.
    const recent = redditName('recent');
    await buildAuthor(t.ctx.db, { name: recent, fetchedAt: daysAgo(89) });

    // Batches of 2, kept profiles among the first ones looked at: every batch moves on past them.
    const report = await pruneAuthorCache(ctxNow(), 2);

    expect(report.authors).toBeGreaterThanOrEqual(gone.length + 1);
    expect(await authorsLeft([...gone, edgeGone, foundAgain, dismissed, recent])).toEqual(
      lower(foundAgain, dismissed, recent),
    );
    // The profile still shown is not read again.
    expect(await authorsToEnrich(t.ctx.db, { limit: 10, since: daysAgo(7), projectId: b.id })).toEqual([]);
  });

  it('deletes the profile once lead retention took the last lead naming it', async () => {
    const project = await buildProject(t.ctx.db, t.config);
    const author = redditName('author');
    await buildAuthor(t.ctx.db, { name: author, fetchedAt: daysAgo(100) });
    await buildLead(t.ctx.db, project.id, { author, itemCreatedAt: daysAgo(101), foundAt: daysAgo(100) });

    await pruneAuthorCache(ctxNow());
    expect(await authorsLeft([author])).toEqual(lower(author));

    await pruneExpiredLeads(ctxNow());
    await pruneAuthorCache(ctxNow());
    expect(await authorsLeft([author])).toEqual(new Set());
  });

  it('deletes unanswered notes of authors no lead of the last 7 days lists for a look-up', async () => {
    const project = await buildProject(t.ctx.db, t.config);
    const note = async (name: string, at: Date) => noteAuthorUnanswered(t.ctx.db, name, at);
    // Left unanswered a month ago, its lead found three weeks ago: no look-up lists it any more.
    const stale = redditName('stale');
    await note(stale, daysAgo(30));
    await buildLead(t.ctx.db, project.id, { author: stale, foundAt: daysAgo(21) });
    // Left unanswered 10 days ago, no lead at all.
    const orphan = redditName('orphan');
    await note(orphan, daysAgo(10));
    // Left unanswered long ago, found again two days ago: still read after the others.
    const foundAgain = redditName('again');
    await note(foundAgain, daysAgo(30));
    await buildLead(t.ctx.db, project.id, { author: foundAgain, foundAt: daysAgo(2) });
    // Left unanswered two days ago: kept, whatever its leads.
    const lately = redditName('lately');
    await note(lately, daysAgo(2));
    await buildLead(t.ctx.db, project.id, { author: lately, foundAt: daysAgo(20) });
    const fresh = redditName('fresh');
    await buildLead(t.ctx.db, project.id, { author: fresh, foundAt: daysAgo(1) });

    const report = await pruneAuthorCache(ctxNow(), 1);

    expect(report.unanswered).toBeGreaterThanOrEqual(2);
    expect(await unansweredLeft([stale, orphan, foundAgain, lately])).toEqual(lower(foundAgain, lately));
    // The author found again still waits behind the one never left unanswered.
    expect(await authorsToEnrich(t.ctx.db, { limit: 10, since: daysAgo(7), projectId: project.id })).toEqual([
      fresh,
      foundAgain,
    ]);
  });

  it('runs daily as a job, after lead retention', () => {
    expect(pruneAuthorsJob.cron).toBe('47 3 * * *');
    expect(pruneAuthorsJob.policy).toBe('singleton');
  });
});
