import { and, asc, eq, exists, isNull, lte, or } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { leads, projectWebhooks, type ProjectWebhookRow } from './leads.table';
import { undelivered } from './leads.repository';

export type NewWebhook = Omit<ProjectWebhookRow, 'lastDeliveryAt' | 'lastStatus'>;

export async function findWebhook(db: DbOrTx, projectId: string): Promise<ProjectWebhookRow | null> {
  const rows = await db.select().from(projectWebhooks).where(eq(projectWebhooks.projectId, projectId));
  return rows[0] ?? null;
}

/** Creates or replaces the project's webhook settings; delivery history is kept. */
export async function saveWebhook(db: DbOrTx, values: NewWebhook): Promise<ProjectWebhookRow> {
  const { projectId: _projectId, ...changes } = values;
  const rows = await db
    .insert(projectWebhooks)
    .values(values)
    .onConflictDoUpdate({ target: projectWebhooks.projectId, set: changes })
    .returning();
  return rows[0]!;
}

export async function deleteWebhook(db: DbOrTx, projectId: string): Promise<void> {
  await db.delete(projectWebhooks).where(eq(projectWebhooks.projectId, projectId));
}

/** Projects whose enabled webhook is due (not backing off) and has leads waiting for it. */
export async function dueWebhookProjects(db: DbOrTx, now: Date, limit: number): Promise<string[]> {
  const rows = await db
    .select({ projectId: projectWebhooks.projectId })
    .from(projectWebhooks)
    .where(
      and(
        eq(projectWebhooks.enabled, true),
        or(isNull(projectWebhooks.nextAttemptAt), lte(projectWebhooks.nextAttemptAt, now)),
        exists(
          db
            .select({ one: leads.id })
            .from(leads)
            .where(undelivered(projectWebhooks.projectId, projectWebhooks.activeSince)),
        ),
      ),
    )
    .orderBy(asc(projectWebhooks.projectId))
    .limit(limit);
  return rows.map((r) => r.projectId);
}

export interface DeliveryOutcome {
  at: Date;
  status: string;
  failedAttempts: number;
  nextAttemptAt: Date | null;
}

export async function recordDeliveryOutcome(
  db: DbOrTx,
  projectId: string,
  outcome: DeliveryOutcome,
): Promise<void> {
  await db
    .update(projectWebhooks)
    .set({
      lastDeliveryAt: outcome.at,
      lastStatus: outcome.status,
      failedAttempts: outcome.failedAttempts,
      nextAttemptAt: outcome.nextAttemptAt,
    })
    .where(eq(projectWebhooks.projectId, projectId));
}
