import { randomUUID } from 'node:crypto';
import type { TProductInfoFields } from '@threadreach/contract';
import { systemClock } from '../clock';
import type { Config } from '../config/config';
import type { Db } from '../db/client';
import { signAccessToken } from '../features/auth/tokens';
import { insertUser } from '../features/users/users.repository';
import type { UserRow } from '../features/users/users.table';
import { insertProject } from '../features/projects/projects.repository';
import type { ProjectRow } from '../features/projects/projects.table';

export interface TestUser extends UserRow {
  token: string;
  auth: { authorization: string };
}

/** A user of its own (unique e-mail) with a signed access token; USER with 3 profiles by default. */
export async function buildUser(
  db: Db,
  config: Config,
  overrides: { roles?: string[]; profilesLimit?: number; email?: string } = {},
): Promise<TestUser> {
  const user = await insertUser(db, {
    email: overrides.email ?? `user-${randomUUID()}@test.local`,
    roles: overrides.roles ?? ['USER'],
    profilesLimit: overrides.profilesLimit ?? 3,
  });
  return signedIn(config, user);
}

/** The user with an access token signed for what the row says now (a changed limit, say). */
export async function signedIn(config: Config, user: UserRow): Promise<TestUser> {
  const { token } = await signAccessToken(config, user, systemClock.now());
  return { ...user, token, auth: { authorization: `Bearer ${token}` } };
}

/** A project, with its own owner unless one is given. */
export async function buildProject(
  db: Db,
  config: Config,
  overrides: { owner?: TestUser; name?: string } = {},
): Promise<ProjectRow & { owner: TestUser }> {
  const owner = overrides.owner ?? (await buildUser(db, config));
  const project = await insertProject(db, {
    userId: owner.id,
    name: overrides.name ?? `Project ${randomUUID().slice(0, 8)}`,
    description: null,
  });
  return { ...project, owner };
}

export function validProductInfo(overrides: Partial<TProductInfoFields> = {}): TProductInfoFields {
  return {
    product_description:
      'Threadreach finds people on Reddit who ask for a tool like yours and helps you message them personally.',
    ideal_client_profile: 'Founders of small B2B SaaS companies looking for their first customers.',
    call_to_action: 'Reply if you want a free trial.',
    writing_style: 'Friendly, short and direct.',
    ...overrides,
  };
}
