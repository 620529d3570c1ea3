import { and, count, desc, eq, lt, sql } from 'drizzle-orm';
import type { TPageQuery } from '@threadreach/contract';
import type { DbOrTx as Db } from '../../db/client';
import { prepared } from '../../db/prepared';
import { redditAccounts, type RedditAccountRow } from '../accounts/accounts.table';
import { CONTACTED_DM_STATES, dmClaimsKept, dmMessages, type DmState } from '../dms/dms.table';
import { users } from '../users/users.table';
import { projects, type ProjectRow } from './projects.table';

export interface ProjectWithOwner extends ProjectRow {
  ownerEmail: string;
  /** The owner's plan as it stands now, not as their token last said (the subscription gate reads it). */
  ownerProfilesLimit: number;
}

const withOwner = {
  id: projects.id,
  userId: projects.userId,
  name: projects.name,
  description: projects.description,
  withoutKeywords: projects.withoutKeywords,
  createdAt: projects.createdAt,
  updatedAt: projects.updatedAt,
  ownerEmail: users.email,
  ownerProfilesLimit: users.profilesLimit,
};

// The project scope runs this on every project route.
const byId = (db: Db, name: string) =>
  db
    .select(withOwner)
    .from(projects)
    .innerJoin(users, eq(users.id, projects.userId))
    .where(eq(projects.id, sql.placeholder('id')))
    .limit(1)
    .prepare(name);

/** What the subscription gate reads of the project's owner; null when the project is gone. */
export async function findProjectOwnerPlan(
  db: Db,
  projectId: string,
): Promise<{ roles: string[]; profilesLimit: number } | null> {
  const [owner] = await db
    .select({ roles: users.roles, profilesLimit: users.profilesLimit })
    .from(projects)
    .innerJoin(users, eq(users.id, projects.userId))
    .where(eq(projects.id, projectId));
  return owner ?? null;
}

export async function findProjectById(db: Db, id: string): Promise<ProjectWithOwner | null> {
  const rows = await prepared(db, 'project_by_id', byId).execute({ id });
  return rows[0] ?? null;
}

const pageOfOwner = (db: Db, name: string) =>
  db
    .select(withOwner)
    .from(projects)
    .innerJoin(users, eq(users.id, projects.userId))
    .where(eq(projects.userId, sql.placeholder('ownerId')))
    .orderBy(desc(projects.createdAt), desc(projects.id))
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .prepare(name);

const countOfOwner = (db: Db, name: string) =>
  db
    .select({ n: count() })
    .from(projects)
    .where(eq(projects.userId, sql.placeholder('ownerId')))
    .prepare(name);

/** One page of projects, newest first; `ownerId` null lists every user's projects. */
export async function listProjects(
  db: Db,
  ownerId: string | null,
  page: TPageQuery,
): Promise<{ rows: ProjectWithOwner[]; total: number }> {
  if (ownerId) {
    const [rows, totals] = await Promise.all([
      prepared(db, 'projects_page_of_owner', pageOfOwner).execute({ ownerId, ...page }),
      prepared(db, 'projects_count_of_owner', countOfOwner).execute({ ownerId }),
    ]);
    return { rows, total: totals[0]?.n ?? 0 };
  }
  const [rows, totals] = await Promise.all([
    db
      .select(withOwner)
      .from(projects)
      .innerJoin(users, eq(users.id, projects.userId))
      .orderBy(desc(projects.createdAt), desc(projects.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(projects),
  ]);
  return { rows, total: totals[0]?.n ?? 0 };
}

export async function countProjectsOfUser(db: Db, userId: string): Promise<number> {
  const rows = await prepared(db, 'projects_count_of_owner', countOfOwner).execute({ ownerId: userId });
  return rows[0]?.n ?? 0;
}

/** Whether the owner has another project of this name, in any letter case (the owner's index narrows it). */
export async function projectNameTaken(
  db: Db,
  userId: string,
  name: string,
  exceptId?: string,
): Promise<boolean> {
  const rows = await db
    .select({ id: projects.id })
    .from(projects)
    .where(
      and(
        eq(projects.userId, userId),
        sql`lower(${projects.name}) = lower(${name})`,
        exceptId ? sql`${projects.id} <> ${exceptId}` : undefined,
      ),
    )
    .limit(1);
  return rows.length > 0;
}

export async function insertProject(
  db: Db,
  values: { userId: string; name: string; description: string | null },
): Promise<ProjectRow> {
  const rows = await db.insert(projects).values(values).returning();
  return rows[0]!;
}

export async function updateProjectRow(
  db: Db,
  id: string,
  values: Partial<Pick<ProjectRow, 'name' | 'description' | 'withoutKeywords'>>,
): Promise<ProjectRow | null> {
  const rows = await db
    .update(projects)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(projects.id, id))
    .returning();
  return rows[0] ?? null;
}

export async function deleteProjectRow(db: Db, id: string, userId: string): Promise<boolean> {
  const rows = await db
    .delete(projects)
    .where(and(eq(projects.id, id), eq(projects.userId, userId)))
    .returning({ id: projects.id });
  return rows.length > 0;
}

/**
 * Deletes every DM of a project, each after any send claim in flight on it, and returns the recipients of
 * those that reached someone (or may have: sending, unknown).
 */
export async function deleteProjectDms(db: Db, projectId: string, now: Date): Promise<string[]> {
  const rows = await db.delete(dmMessages).where(eq(dmMessages.projectId, projectId)).returning({
    recipient: dmMessages.recipientUsername,
    state: dmMessages.state,
    ownerUserId: dmMessages.ownerUserId,
    senderKey: dmMessages.senderKey,
    claimedAt: dmMessages.claimedAt,
  });
  const contacted = rows.filter((r) => (CONTACTED_DM_STATES as readonly DmState[]).includes(r.state));
  // Today's sends of its accounts keep counting toward their Reddit accounts' day (any time zone's).
  const since = now.getTime() - CLAIMS_KEPT_MS;
  const kept = contacted.filter((r) => r.senderKey && r.claimedAt && r.claimedAt.getTime() > since);
  if (kept.length > 0) {
    await db.delete(dmClaimsKept).where(lt(dmClaimsKept.claimedAt, new Date(since)));
    await db
      .insert(dmClaimsKept)
      .values(
        kept.map((r) => ({ ownerUserId: r.ownerUserId, senderKey: r.senderKey!, claimedAt: r.claimedAt! })),
      );
  }
  return contacted.map((r) => r.recipient);
}

/** How long the claims of a deleted project's DMs keep counting: a day in any time zone, and then some. */
const CLAIMS_KEPT_MS = 2 * 86_400_000;

/** Deletes a project's connected accounts, returning what revoking their grants at Reddit needs. */
export async function deleteProjectAccounts(
  db: Db,
  projectId: string,
): Promise<Pick<RedditAccountRow, 'id' | 'credentialId' | 'refreshTokenCiphertext'>[]> {
  return db.delete(redditAccounts).where(eq(redditAccounts.projectId, projectId)).returning({
    id: redditAccounts.id,
    credentialId: redditAccounts.credentialId,
    refreshTokenCiphertext: redditAccounts.refreshTokenCiphertext,
  });
}
