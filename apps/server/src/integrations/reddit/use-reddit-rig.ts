import type { RedditSimOptions } from '@threadreach/reddit-sim';
import { afterAll, beforeAll } from 'vitest';
import type { Database } from '../../db/client';
import { openTestDatabase } from '../../test/test-app';
import { startRedditRig, type RedditTestRig } from './reddit-test-support';

/**
 * For a test file: a database and a simulator rig opened before its tests and closed after them.
 * Read `database` and `rig` inside tests or hooks, once they are set.
 */
export function useRedditRig(simOptions: RedditSimOptions = {}): {
  readonly database: Database;
  readonly rig: RedditTestRig;
} {
  let database: Database | undefined;
  let rig: RedditTestRig | undefined;
  beforeAll(async () => {
    database = await openTestDatabase();
    rig = await startRedditRig(database.db, simOptions);
  });
  afterAll(async () => {
    await rig?.sim.close();
    await database?.close();
  });
  return {
    get database() {
      return database!;
    },
    get rig() {
      return rig!;
    },
  };
}
