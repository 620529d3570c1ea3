import { and, eq, sql } from 'drizzle-orm';
import type { TRunProgress } from '@threadreach/contract';
import type { DbOrTx as Db } from '../../db/client';
import { projectRuns, type ProjectRunRow } from './project-runs.table';

export type RunKind = 'subreddits' | 'search' | 'dms';

/** A run whose worker has not written for this long died with it; a new start may take over. */
export const RUN_STALE_AFTER_MS = 10 * 60_000;

/**
 * Marks a run of `kind` as running for the project, unless one already is (and is alive): null then, which
 * the route answers with 409. One statement, so two starts at once cannot both win.
 */
export async function startRun(
  db: Db,
  projectId: string,
  kind: RunKind,
  now: Date,
  options: Record<string, unknown> = {},
): Promise<ProjectRunRow | null> {
  const staleBefore = new Date(now.getTime() - RUN_STALE_AFTER_MS);
  const values = {
    status: 'running',
    error: null,
    options,
    progress: null,
    result: null,
    startedAt: now,
    heartbeatAt: now,
    finishedAt: null,
  };
  const rows = await db
    .insert(projectRuns)
    .values({ projectId, kind, ...values })
    .onConflictDoUpdate({
      target: [projectRuns.projectId, projectRuns.kind],
      set: values,
      setWhere: sql`${projectRuns.status} <> 'running' or ${projectRuns.heartbeatAt} < ${staleBefore}`,
    })
    .returning();
  return rows[0] ?? null;
}

/**
 * The run a worker works for. A start that takes over a lost run gives it a new start instant, so a worker
 * that comes back late writes nothing into the run that replaced its own.
 */
export type RunRef = Pick<ProjectRunRow, 'projectId' | 'kind' | 'startedAt'>;

function sameRun(run: RunRef) {
  return and(
    eq(projectRuns.projectId, run.projectId),
    eq(projectRuns.kind, run.kind),
    eq(projectRuns.startedAt, run.startedAt),
  );
}

/**
 * The project's run of `kind`. `lock` (in a transaction) holds it until the transaction ends, so a start
 * that follows in it replaces exactly the run read here.
 */
export async function findRun(
  db: Db,
  projectId: string,
  kind: RunKind,
  options: { lock?: boolean } = {},
): Promise<ProjectRunRow | null> {
  const query = db
    .select()
    .from(projectRuns)
    .where(and(eq(projectRuns.projectId, projectId), eq(projectRuns.kind, kind)))
    .limit(1);
  const rows = await (options.lock ? query.for('update') : query);
  return rows[0] ?? null;
}

/**
 * Progress of a running run (also its heartbeat), and its result so far when given. A run that is no longer
 * running, or was replaced, is left alone.
 */
export async function updateRunProgress(
  db: Db,
  run: RunRef,
  progress: TRunProgress,
  now: Date,
  result?: Record<string, unknown>,
): Promise<void> {
  await db
    .update(projectRuns)
    .set({ progress, heartbeatAt: now, ...(result ? { result } : {}) })
    .where(and(sameRun(run), eq(projectRuns.status, 'running')));
}

/** Ends the run with its outcome; a run that was replaced meanwhile is left alone. The run ended, if any. */
export async function finishRun(
  db: Db,
  run: RunRef,
  outcome: { status: 'completed' | 'failed'; error?: string | null; result?: Record<string, unknown> | null },
  now: Date,
): Promise<ProjectRunRow | null> {
  const rows = await db
    .update(projectRuns)
    .set({
      status: outcome.status,
      error: outcome.error ?? null,
      result: outcome.result ?? null,
      finishedAt: now,
      heartbeatAt: now,
    })
    .where(sameRun(run))
    .returning();
  return rows[0] ?? null;
}

/**
 * Fails the project's run of `kind` if it is still running and was started with `options` (a part of its
 * own): one statement, so a run that ended, or was replaced by another start, meanwhile is left alone.
 * The failed run's start instant, or null when none was.
 */
export async function failRunningRun(
  db: Db,
  projectId: string,
  kind: RunKind,
  options: Record<string, unknown>,
  error: string,
  now: Date,
): Promise<Date | null> {
  const rows = await db
    .update(projectRuns)
    .set({ status: 'failed', error, finishedAt: now, heartbeatAt: now })
    .where(
      and(
        eq(projectRuns.projectId, projectId),
        eq(projectRuns.kind, kind),
        eq(projectRuns.status, 'running'),
        sql`${projectRuns.options} @> ${JSON.stringify(options)}::jsonb`,
      ),
    )
    .returning({ startedAt: projectRuns.startedAt });
  return rows[0]?.startedAt ?? null;
}

/**
 * The status call's view of a run: `running` shows as the spec's 'generating' / 'searching'; a run whose
 * worker went silent is reported failed so the client stops polling.
 */
export function presentRun<R extends string>(
  row: ProjectRunRow | null,
  runningStatus: R,
  now: Date,
): {
  status: 'idle' | R | 'completed' | 'failed';
  error: string | null;
  started_at: string | null;
  finished_at: string | null;
  duration_seconds: number | null;
  progress: TRunProgress | null;
} {
  if (!row) {
    return {
      status: 'idle',
      error: null,
      started_at: null,
      finished_at: null,
      duration_seconds: null,
      progress: null,
    };
  }
  const lost = row.status === 'running' && now.getTime() - row.heartbeatAt.getTime() > RUN_STALE_AFTER_MS;
  const end = row.finishedAt ?? (lost ? row.heartbeatAt : now);
  const status = lost
    ? 'failed'
    : row.status === 'running'
      ? runningStatus
      : (row.status as 'completed' | 'failed');
  return {
    status,
    error: lost ? 'The run stopped unexpectedly; please start it again' : row.error,
    started_at: row.startedAt.toISOString(),
    finished_at: row.finishedAt?.toISOString() ?? null,
    duration_seconds: Math.max(0, Math.round((end.getTime() - row.startedAt.getTime()) / 100) / 10),
    progress: row.progress ?? null,
  };
}
