import {
  KEYWORDS_PER_PROJECT_MAX,
  NO_KEYWORD_SELECTED,
  type TApproveKeywordsResponse,
  type TDiscoveryFilters,
  type TGenerateKeywordsResponse,
  type TKeywordList,
  type TKeywordType,
  type TPageQuery,
  type ZApproveKeywordsRequest,
} from '@threadreach/contract';
import type { z } from 'zod';
import { AiError } from '../../ai/ai.provider';
import type { AppContext } from '../../context';
import { AppError, badRequest, notFound } from '../../http/errors';
import { checkGenerationCanStart, startSubredditGeneration } from '../subreddits';
import { presentFilters, presentKeyword } from './keywords.presenter';
import {
  countProjectSubreddits,
  deleteAllKeywords,
  deleteUnapprovedKeywords,
  findFilters,
  findProductInfoRow,
  insertKeywords,
  listAllKeywords,
  listKeywordPage,
  lockProjectKeywords,
  upsertFilters,
  type KeywordValues,
} from './keywords.repository';

type ApproveKeywordsInput = z.output<typeof ZApproveKeywordsRequest>;

/** One spelling per keyword: single spaces, so "crm  tool" and "CRM tool" are the same keyword. */
function normalise(text: string): string {
  return text.trim().replace(/\s+/g, ' ');
}

const keyOf = (text: string) => normalise(text).toLowerCase();

/** Entries of a filter list, trimmed, each once whatever its case. */
function distinct(list: string[]): string[] {
  const seen = new Set<string>();
  return list
    .map(normalise)
    .filter((v) => v !== '' && !seen.has(v.toLowerCase()) && seen.add(v.toLowerCase()));
}

/** Step 2: the project's keywords (product first, then ICP) and its negative keywords and exclusions. */
export async function listKeywords(
  ctx: AppContext,
  projectId: string,
  page: TPageQuery,
): Promise<TKeywordList> {
  const [{ rows, total }, filters] = await Promise.all([
    listKeywordPage(ctx.db, projectId, page),
    findFilters(ctx.db, projectId),
  ]);
  return {
    items: rows.map(presentKeyword),
    total,
    limit: page.limit,
    offset: page.offset,
    filters: presentFilters(filters),
  };
}

/**
 * Asks the AI engine for product and ICP keywords from step 1 and puts them in place of the unapproved
 * ones: approved keywords stay, a suggestion already present (in any case) is not added twice, and the
 * project never holds more than KEYWORDS_PER_PROJECT_MAX. `generated` tells whether anything new came.
 */
export async function generateKeywords(
  ctx: AppContext,
  projectId: string,
): Promise<TGenerateKeywordsResponse> {
  const info = await findProductInfoRow(ctx.db, projectId);
  if (!info) throw badRequest('Product information is missing: save step 1 first', 'product_info_missing');
  let suggestions;
  try {
    suggestions = await ctx.ai.generateKeywords({
      product_description: info.productDescription,
      ideal_client_profile: info.idealClientProfile,
      call_to_action: info.callToAction,
      writing_style: info.writingStyle,
    });
  } catch (error) {
    if (error instanceof AiError) {
      throw new AppError(502, 'keyword_generation_failed', `Keyword generation failed: ${error.message}`);
    }
    throw error;
  }
  const now = ctx.clock.now();
  const { rows, added } = await ctx.db.transaction(async (tx) => {
    await lockProjectKeywords(tx, projectId);
    const approved = (await listAllKeywords(tx, projectId)).filter((k) => k.approved);
    await deleteUnapprovedKeywords(tx, projectId);
    const seen = new Set(approved.map((k) => keyOf(k.keyword)));
    const room = KEYWORDS_PER_PROJECT_MAX - approved.length;
    const fresh: KeywordValues[] = [];
    for (const suggestion of suggestions) {
      const keyword = normalise(suggestion.keyword);
      if (fresh.length >= room || seen.has(keyOf(keyword))) continue;
      seen.add(keyOf(keyword));
      // A millisecond apart, so the list keeps the engine's best-first order.
      fresh.push({
        keyword,
        type: suggestion.type,
        approved: false,
        createdAt: new Date(now + fresh.length),
      });
    }
    await insertKeywords(tx, projectId, fresh);
    return { rows: await listAllKeywords(tx, projectId), added: fresh.length };
  });
  const keywords = rows.map(presentKeyword);
  return {
    generated: added > 0,
    product_keywords: keywords.filter((k) => k.type === 'product'),
    icp_keywords: keywords.filter((k) => k.type === 'icp'),
    subreddits_count: await countProjectSubreddits(ctx.db, projectId),
  };
}

interface KeywordRowInput {
  id: string | undefined;
  keyword: string;
  type: TKeywordType;
  approved: boolean;
}

/**
 * The list as the customer sent it, each keyword once: a keyword written twice (in any case or type)
 * is one row, approved if either was, keeping the id of the first row that had one.
 */
function mergeRows(rows: ApproveKeywordsInput['keywords']): KeywordRowInput[] {
  const byKey = new Map<string, KeywordRowInput>();
  const seenIds = new Set<string>();
  for (const row of rows) {
    if (row.id !== undefined) {
      if (seenIds.has(row.id)) continue;
      seenIds.add(row.id);
    }
    const keyword = normalise(row.keyword);
    const existing = byKey.get(keyOf(keyword));
    if (existing) {
      existing.approved ||= row.approved;
      existing.id ??= row.id;
      continue;
    }
    byKey.set(keyOf(keyword), { id: row.id, keyword, type: row.type, approved: row.approved });
  }
  return [...byKey.values()];
}

function cleanFilters(filters: Partial<TDiscoveryFilters>): Partial<TDiscoveryFilters> {
  return {
    ...(filters.negative_keywords ? { negative_keywords: distinct(filters.negative_keywords) } : {}),
    ...(filters.excluded_subreddits ? { excluded_subreddits: distinct(filters.excluded_subreddits) } : {}),
    ...(filters.excluded_authors ? { excluded_authors: distinct(filters.excluded_authors) } : {}),
  };
}

/**
 * "Save Keywords & Patterns" and "Approve & Continue": the list as shown becomes the project's keywords
 * (rows with an id are updated, rows without one are added, keywords left out are removed), with the
 * filters, in one transaction. An id that is not one of the project's keywords is a 404 and nothing
 * changes. With `generate_subreddits`, subreddit generation starts afterwards, as generate-subreddits
 * would start it; one already running is reported, not refused.
 */
export async function approveKeywords(
  ctx: AppContext,
  projectId: string,
  input: ApproveKeywordsInput,
): Promise<TApproveKeywordsResponse> {
  const rows = mergeRows(input.keywords);
  if (!rows.some((r) => r.approved)) throw badRequest(NO_KEYWORD_SELECTED, 'no_keyword_selected');
  // Checked before anything is written, so a refusal leaves step 2 as it was.
  if (input.generate_subreddits) await checkGenerationCanStart(ctx, projectId);
  const now = ctx.clock.now();

  const saved = await ctx.db.transaction(async (tx) => {
    await lockProjectKeywords(tx, projectId);
    const existing = new Map((await listAllKeywords(tx, projectId)).map((k) => [k.id, k]));
    if (rows.some((r) => r.id !== undefined && !existing.has(r.id))) throw notFound('Keyword not found');
    // Rewritten as a whole: renaming two keywords into each other's text cannot trip the unique index.
    await deleteAllKeywords(tx, projectId);
    let added = 0;
    await insertKeywords(
      tx,
      projectId,
      rows.map((r) => ({
        ...(r.id ? { id: r.id } : {}),
        keyword: r.keyword,
        type: r.type,
        approved: r.approved,
        createdAt: (r.id && existing.get(r.id)?.createdAt) || new Date(now + added++),
      })),
    );
    const filters = input.filters
      ? await upsertFilters(tx, projectId, cleanFilters(input.filters), new Date(now))
      : await findFilters(tx, projectId);
    return { keywords: await listAllKeywords(tx, projectId), filters };
  });

  const generation = input.generate_subreddits
    ? await startSubredditGeneration(ctx, projectId)
    : ('not_requested' as const);
  return {
    keywords: saved.keywords.map(presentKeyword),
    approved_count: saved.keywords.filter((k) => k.approved).length,
    filters: presentFilters(saved.filters),
    subreddit_generation: generation,
  };
}
