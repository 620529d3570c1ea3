import type { TCommentList, TLeadsDeleted, TPostList, TProfileList } from '@threadreach/contract';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { notFound } from '../../http/errors';
import { redditWebUrl } from '../../integrations/reddit';
import type { ChildResource } from '../projects';
import { csvRecord } from '../../http/csv';
import { LEADS_CSV_COLUMNS, leadCsvRecord } from './leads.csv';
import { expiryCutoff } from '../dms';
import { presentComment, presentPost, presentProfile, type ListClock } from './leads.presenter';
import {
  dismissLead,
  dismissListedLeads,
  dismissListedProfiles,
  dismissProfile,
  exportLeadsPage,
  leadOwners,
  listLeads,
  listProfiles,
  profileOwners,
  type ExportCursor,
  type LeadKind,
  type LeadPage,
  type ListedLeadView,
} from './leads.repository';

export type LeadListQuery = LeadPage & { min_score: number };

const NOT_FOUND = { post: 'Post not found', comment: 'Comment not found' } as const;

/** Posts and comments that `child` scopes name: a post id must be a live lead of kind post, and so on. */
const leadResource = (kind: LeadKind): ChildResource => ({
  name: kind,
  notFoundDetail: NOT_FOUND[kind],
  ownersOf: (db: Db, ids: string[]) => leadOwners(db, kind, ids),
});

export const leadChildResources: readonly ChildResource[] = [
  leadResource('post'),
  leadResource('comment'),
  { name: 'profile', notFoundDetail: 'Profile not found', ownersOf: profileOwners },
];

function listClock(ctx: AppContext): ListClock {
  const now = ctx.clock.now();
  return { now, cutoff: expiryCutoff(ctx, now).getTime() };
}

/** A page of the project's posts or comments, each presented with `present`. */
async function listLeadsPage<T>(
  ctx: AppContext,
  projectId: string,
  query: LeadListQuery,
  kind: LeadKind,
  present: (row: ListedLeadView, clock: ListClock) => T,
): Promise<{ items: T[]; total: number; limit: number; offset: number }> {
  const { rows, total } = await listLeads(ctx.db, { projectId, minScore: query.min_score }, kind, query);
  // One instant for the whole page: every row is judged too old or not as of the same moment.
  const clock = listClock(ctx);
  return { items: rows.map((r) => present(r, clock)), total, limit: query.limit, offset: query.offset };
}

export function listPostsPage(ctx: AppContext, projectId: string, query: LeadListQuery): Promise<TPostList> {
  return listLeadsPage(ctx, projectId, query, 'post', presentPost);
}

export function listCommentsPage(
  ctx: AppContext,
  projectId: string,
  query: LeadListQuery,
): Promise<TCommentList> {
  return listLeadsPage(ctx, projectId, query, 'comment', presentComment);
}

export async function listProfilesPage(
  ctx: AppContext,
  projectId: string,
  query: LeadListQuery,
): Promise<TProfileList> {
  const { rows, total } = await listProfiles(ctx.db, { projectId, minScore: query.min_score }, query);
  const now = ctx.clock.now();
  return { items: rows.map((r) => presentProfile(r, now)), total, limit: query.limit, offset: query.offset };
}

/**
 * Removes a post or comment from the project's results. It stays as a tombstone, so the next search
 * that meets it again does not bring it back.
 */
export async function dismissLeadOf(ctx: AppContext, projectId: string, kind: LeadKind, id: string) {
  if (!(await dismissLead(ctx.db, projectId, kind, id, new Date(ctx.clock.now())))) {
    throw notFound(NOT_FOUND[kind]);
  }
}

export async function dismissProfileOf(ctx: AppContext, projectId: string, id: string) {
  if (!(await dismissProfile(ctx.db, projectId, id, new Date(ctx.clock.now())))) {
    throw notFound('Profile not found');
  }
}

/** Deletes all of a results tab: every lead it lists at `minScore`, on every page. */
export async function dismissListedLeadsOf(
  ctx: AppContext,
  projectId: string,
  kind: LeadKind,
  minScore: number,
): Promise<TLeadsDeleted> {
  const at = new Date(ctx.clock.now());
  return { deleted_count: await dismissListedLeads(ctx.db, { projectId, minScore }, kind, at) };
}

export async function dismissListedProfilesOf(
  ctx: AppContext,
  projectId: string,
  minScore: number,
): Promise<TLeadsDeleted> {
  const at = new Date(ctx.clock.now());
  return { deleted_count: await dismissListedProfiles(ctx.db, { projectId, minScore }, at) };
}

/** Leads read per query while exporting. */
export const EXPORT_PAGE_SIZE = 500;

/**
 * Every live lead of the project as CSV text, posts then comments, each newest first. Pages are read
 * one at a time as the answer is sent, so a large export holds one page in memory.
 */
export async function* leadsCsv(ctx: AppContext, projectId: string): AsyncGenerator<string> {
  const redditOrigin = redditWebUrl(ctx.reddit.endpoints);
  yield csvRecord([...LEADS_CSV_COLUMNS]);
  for (const kind of ['post', 'comment'] as const) {
    let cursor: ExportCursor | null = null;
    for (;;) {
      const page = await exportLeadsPage(ctx.db, projectId, kind, cursor, EXPORT_PAGE_SIZE);
      if (page.length > 0) yield page.map((v) => leadCsvRecord(v, redditOrigin)).join('');
      if (page.length < EXPORT_PAGE_SIZE) break;
      const last = page[page.length - 1]!.lead;
      cursor = { itemCreatedAt: last.itemCreatedAt, id: last.id };
    }
  }
}

/** The export's file name: the project's name in plain letters and the day it was made. */
export function leadsCsvFilename(ctx: AppContext, project: { id: string; name: string }): string {
  const slug = project.name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  const day = new Date(ctx.clock.now()).toISOString().slice(0, 10);
  return `leads-${slug || project.id}-${day}.csv`;
}
