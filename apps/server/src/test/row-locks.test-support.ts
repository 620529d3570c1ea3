import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';

/**
 * Waits until a statement of the test's database waits for a row lock, or `request` has finished (it
 * took none). PGlite runs one transaction at a time: the request's queries wait for this one anyway.
 */
export async function untilWaitingForALock(db: Db, request: Promise<unknown>): Promise<void> {
  if (!process.env.DATABASE_URL) return;
  let done = false;
  void request.then(
    () => (done = true),
    () => (done = true),
  );
  for (let i = 0; i < 1000 && !done; i++) {
    const waiting = await db.execute<{ n: number }>(
      sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
    );
    if (waiting.rows[0]!.n > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
