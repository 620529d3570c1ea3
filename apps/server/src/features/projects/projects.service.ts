import { sql } from 'drizzle-orm';
import {
  isAdmin,
  isModerator,
  type TAccess,
  type TCreateProjectRequest,
  type TPageQuery,
  type TProject,
  type TProjectList,
  type TUpdateProjectRequest,
} from '@threadreach/contract';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { AppError, forbidden, projectNotFound } from '../../http/errors';
import { revokeRemovedAccount } from '../accounts';
import { requiresSubscription, type AuthUser } from '../auth';
import { suppressContacted } from '../suppressions';
import { users } from '../users/users.table';
import { presentProject } from './projects.presenter';
import {
  countProjectsOfUser,
  projectNameTaken,
  deleteProjectAccounts,
  deleteProjectDms,
  deleteProjectRow,
  findProjectById,
  findProjectOwnerPlan,
  insertProject,
  listProjects,
  updateProjectRow,
  type ProjectWithOwner,
} from './projects.repository';

/** How many projects a user owns (the figure their limit is checked against). */
export function countUserProjects(db: Db, userId: string): Promise<number> {
  return countProjectsOfUser(db, userId);
}

/**
 * Whether the project's owner may have work done on it in the background (the agent, paced sends): a
 * subscriber, moderator or admin. False when the project is gone.
 */
export async function ownerHasPlan(db: Db, projectId: string): Promise<boolean> {
  const owner = await findProjectOwnerPlan(db, projectId);
  return owner !== null && !requiresSubscription(owner);
}

/**
 * The project if the caller may reach it for what they mean to do: owners always, admins read anyone's
 * (and write, where `adminWrites` says so). Anyone else gets the same 404 as for a project that does not
 * exist.
 */
export async function getAccessibleProject(
  db: Db,
  caller: AuthUser,
  projectId: string,
  access: TAccess,
  options: { adminWrites?: boolean } = {},
): Promise<ProjectWithOwner> {
  const project = await findProjectById(db, projectId);
  if (!project) throw projectNotFound();
  if (project.userId === caller.id) return project;
  if (!isAdmin(caller.roles)) throw projectNotFound();
  if (access === 'write' && !options.adminWrites) {
    throw forbidden('You can only modify your own projects.', 'not_project_owner');
  }
  return project;
}

export async function listProjectsFor(db: Db, caller: AuthUser, page: TPageQuery): Promise<TProjectList> {
  const admin = isAdmin(caller.roles);
  const { rows, total } = await listProjects(db, admin ? null : caller.id, page);
  return { items: rows.map((r) => presentProject(r, admin)), total, limit: page.limit, offset: page.offset };
}

export function presentAccessibleProject(caller: AuthUser, project: ProjectWithOwner): TProject {
  return presentProject(project, isAdmin(caller.roles));
}

/** Two projects of one name look the same in the project selector. */
function nameTaken(name: string): AppError {
  return new AppError(
    409,
    'project_name_taken',
    `You already have a project named "${name}". Choose another name.`,
  );
}

/**
 * Moderators and admins create without limit; everyone else needs profiles_limit > 0 and a free slot.
 * The user's row is locked so two concurrent creates cannot both take the last slot.
 */
export async function createProject(
  db: Db,
  caller: AuthUser,
  input: TCreateProjectRequest,
): Promise<TProject> {
  return db.transaction(async (tx) => {
    const locked = await tx.execute<{ profiles_limit: number; roles: string[] }>(
      sql`select ${users.profilesLimit} as profiles_limit, ${users.roles} as roles from ${users} where ${users.id} = ${caller.id} for update`,
    );
    const owner = locked.rows[0];
    if (!owner) throw new AppError(401, 'unauthorized', 'Authentication required.');
    if (!isModerator(owner.roles)) {
      const limit = owner.profiles_limit;
      if (limit <= 0) {
        throw new AppError(
          402,
          'subscription_required',
          'An active subscription is required to create projects (profiles_limit is 0).',
        );
      }
      const used = await countProjectsOfUser(tx, caller.id);
      if (used >= limit) {
        throw new AppError(
          403,
          'project_limit_reached',
          `Project limit reached (${used}/${limit}). Upgrade your subscription to create more projects.`,
        );
      }
    }
    if (await projectNameTaken(tx, caller.id, input.name)) throw nameTaken(input.name);
    const row = await insertProject(tx, {
      userId: caller.id,
      name: input.name,
      description: input.description ?? null,
    });
    return presentProject(row, false);
  });
}

export async function updateProject(
  db: Db,
  caller: AuthUser,
  project: ProjectWithOwner,
  input: TUpdateProjectRequest,
): Promise<TProject> {
  const row = await db.transaction(async (tx) => {
    if (input.name !== undefined) {
      // The owner's row orders renames and creates, so two cannot both take a free name.
      await tx.execute(sql`select 1 from ${users} where ${users.id} = ${project.userId} for update`);
      if (await projectNameTaken(tx, project.userId, input.name, project.id)) throw nameTaken(input.name);
    }
    return updateProjectRow(tx, project.id, {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.without_keywords !== undefined ? { withoutKeywords: input.without_keywords } : {}),
    });
  });
  if (!row) throw projectNotFound();
  return presentProject({ ...row, ownerEmail: project.ownerEmail }, isAdmin(caller.roles));
}

/**
 * Deletes a project and everything in it. Its DMs go first, each once any send claimed on it is committed:
 * the one-contact rule reads them, so whoever they reached is kept on the workspace's do-not-contact list
 * and no other project of the workspace contacts them again. Its accounts' grants are then given up at
 * Reddit, as when an account is removed.
 */
export async function deleteProject(ctx: AppContext, project: ProjectWithOwner): Promise<void> {
  const accounts = await ctx.db.transaction(async (tx) => {
    const contacted = await deleteProjectDms(tx, project.id, new Date(ctx.clock.now()));
    const note = `Contacted from the deleted project "${project.name}"`;
    await suppressContacted(tx, project.userId, contacted, note, new Date(ctx.clock.now()));
    const removed = await deleteProjectAccounts(tx, project.id);
    const deleted = await deleteProjectRow(tx, project.id, project.userId);
    if (!deleted) throw projectNotFound();
    return removed;
  });
  ctx.log.info({ projectId: project.id, accounts: accounts.length }, 'project deleted');
  await Promise.all(accounts.map((account) => revokeRemovedAccount(ctx, account)));
}
