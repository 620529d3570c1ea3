import type { TMeResponse } from '@threadreach/contract';
import type { Db } from '../../db/client';
import { notFound } from '../../http/errors';
import type { AuthUser } from '../auth';
import { countUserProjects } from '../projects';
import { findUserById } from './users.repository';

/** The caller as stored now: roles and limit may have changed since the token was issued. */
export async function getMe(db: Db, caller: AuthUser): Promise<TMeResponse> {
  const user = await findUserById(db, caller.id);
  if (!user) throw notFound('User not found');
  return {
    user_id: user.id,
    email: user.email,
    roles: user.roles,
    profiles_limit: user.profilesLimit,
    projects_used: await countUserProjects(db, user.id),
  };
}
