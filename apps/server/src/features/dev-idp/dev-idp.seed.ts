import { DEFAULT_PROJECT_NAME } from '@threadreach/contract';
import type { Db } from '../../db/client';
import { countUserProjects, createProject } from '../projects';
import { ensureUser } from '../users';
import { DEMO_USERS } from './demo-users';

/**
 * Creates the demo accounts once. The read-only account gets a project to look at, since it
 * cannot create one itself.
 */
export async function seedDemoUsers(db: Db): Promise<void> {
  for (const demo of DEMO_USERS) {
    const user = await ensureUser(db, {
      email: demo.email,
      roles: [demo.role],
      profilesLimit: demo.profilesLimit,
    });
    if (demo.role === 'READONLY' && (await countUserProjects(db, user.id)) === 0) {
      await createProject(
        db,
        { id: user.id, email: user.email, roles: user.roles, profilesLimit: user.profilesLimit },
        { name: DEFAULT_PROJECT_NAME, description: 'A sample project to look around in.' },
      );
    }
  }
}
