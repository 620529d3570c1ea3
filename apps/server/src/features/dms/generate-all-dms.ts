import {
  DM_GENERATE_ALL_MAX,
  ZDmGenerationResult,
  type TDmGenerationResult,
  type TDmGenerationStatus,
  type TDmSkipReason,
  type TLearningPatterns,
} from '@threadreach/contract';
import type { AppContext } from '../../context';
import { AppError } from '../../http/errors';
import type { JobQueue } from '../../jobs/queue';
import { findRun, finishRun, presentRun, startRun, updateRunProgress } from '../projects';
import { generateDms, leadCandidate, requireProduct } from './dm-generation';
import { expiryCutoff } from './dm-expiry';
import { countLeadsWithDm, countTooOldLeads, findLeadSources, leadsWithoutDm } from './dms.repository';

/** Leads one run of the generate-dms job writes for; the job then queues itself for the rest. */
export const DM_JOB_BATCH = 10;

const PHASE = 'writing DMs';

function emptyResult(alreadyHaveDm = 0, tooOld = 0): TDmGenerationResult {
  const skipped: Record<TDmSkipReason, number> = {
    already_has_dm: alreadyHaveDm,
    suppressed: 0,
    already_contacted: 0,
    own_account: 0,
    author_deleted: 0,
    lead_too_old: tooOld,
  };
  return { generated: 0, failed: 0, skipped };
}

/** What a run was started with: the leads to write for, most promising first. */
interface RunPlan {
  lead_ids: { id: string; kind: string }[];
}

function requireJobQueue(ctx: AppContext): JobQueue {
  if (!ctx.queue) {
    throw new AppError(
      503,
      'jobs_unavailable',
      'Background jobs are not running on this server; DM generation cannot start.',
    );
  }
  return ctx.queue;
}

/**
 * "Generate All DMs": plans a DM for each live post and comment scoring at least `minScore` whose author has
 * none in the project yet (one per author, at most DM_GENERATE_ALL_MAX), and starts the generate-dms job on
 * it. Leads too old to message are counted skipped (lead_too_old), not planned. 'running' when a run is
 * already under way (the route answers 409). A plan with nothing to write completes at once.
 */
export async function startDmGeneration(
  ctx: AppContext,
  projectId: string,
  minScore: number,
  enqueue: (queue: JobQueue) => Promise<unknown>,
): Promise<'started' | 'running'> {
  const queue = requireJobQueue(ctx);
  await requireProduct(ctx, projectId);
  const now = new Date(ctx.clock.now());
  const cutoff = expiryCutoff(ctx, now.getTime());
  const [planned, alreadyHaveDm, tooOld] = await Promise.all([
    leadsWithoutDm(ctx.db, projectId, minScore, cutoff, DM_GENERATE_ALL_MAX),
    countLeadsWithDm(ctx.db, projectId, minScore),
    countTooOldLeads(ctx.db, projectId, minScore, cutoff),
  ]);
  const plan: RunPlan = { lead_ids: planned };
  const run = await startRun(ctx.db, projectId, 'dms', now, { ...plan, total: planned.length });
  if (!run) return 'running';
  const result = emptyResult(alreadyHaveDm, tooOld);
  if (planned.length === 0) {
    await finishRun(ctx.db, run, { status: 'completed', result }, now);
    return 'started';
  }
  await updateRunProgress(ctx.db, run, { phase: PHASE, items_read: 0, leads_found: 0 }, now, result);
  try {
    await enqueue(queue);
  } catch (error) {
    await finishRun(ctx.db, run, { status: 'failed', error: 'DM generation could not be queued' }, now);
    throw error;
  }
  return 'started';
}

export async function getDmGenerationStatus(
  ctx: AppContext,
  projectId: string,
): Promise<TDmGenerationStatus> {
  const row = await findRun(ctx.db, projectId, 'dms');
  const total = row?.options.total;
  const result = ZDmGenerationResult.safeParse(row?.result);
  return {
    ...presentRun(row, 'generating', new Date(ctx.clock.now())),
    total: typeof total === 'number' ? total : null,
    result: result.success ? result.data : null,
  };
}

/**
 * One run of the generate-dms job: writes the next DM_JOB_BATCH DMs of the plan, counting each outcome in the
 * run as it goes (progress: leads done, DMs written). Returns true when leads are left, for the job to queue
 * itself again. A worker lost mid-batch repeats at most the DM it was writing, which the project then
 * already has.
 */
export async function runDmGenerationBatch(ctx: AppContext, projectId: string): Promise<boolean> {
  const run = await findRun(ctx.db, projectId, 'dms');
  // Finished, or the project is gone: a late or repeated job has nothing to do.
  if (!run || run.status !== 'running') return false;
  const plan = run.options as unknown as RunPlan;
  const leadIds = Array.isArray(plan.lead_ids) ? plan.lead_ids : [];
  const parsed = ZDmGenerationResult.safeParse(run.result);
  const result = parsed.success ? parsed.data : emptyResult();
  let done = run.progress?.items_read ?? 0;
  const now = () => new Date(ctx.clock.now());

  try {
    const product = await requireProduct(ctx, projectId);
    for (const planned of leadIds.slice(done, done + DM_JOB_BATCH)) {
      const kind = planned.kind === 'comment' ? 'comment' : 'post';
      const [row] = await findLeadSources(ctx.db, projectId, kind, [planned.id]);
      // Dismissed since the plan was made: nothing to write.
      const outcomes = row ? await generateDms(ctx, projectId, product, [leadCandidate(row)]) : [];
      for (const o of outcomes) {
        if (o.kind === 'generated') result.generated += 1;
        else if (o.kind === 'failed') result.failed += 1;
        else result.skipped[o.skipped.reason] += 1;
      }
      done += 1;
      await updateRunProgress(
        ctx.db,
        run,
        { phase: PHASE, items_read: done, leads_found: result.generated },
        now(),
        result,
      );
    }
    if (done < leadIds.length) return true;
    await finishRun(ctx.db, run, { status: 'completed', result }, now());
    ctx.log.info({ job: 'generate-dms', projectId, ...result }, 'DMs generated');
    return false;
  } catch (error) {
    const detail = error instanceof AppError ? error.detail : null;
    if (detail === null) ctx.log.error({ err: error, projectId }, 'DM generation failed');
    await finishRun(
      ctx.db,
      run,
      { status: 'failed', error: detail ?? 'Unexpected error while writing DMs', result },
      now(),
    );
    return false;
  }
}

/** What one batch of drafts came to. */
export interface DraftReport {
  generated: number;
  failed: number;
  skipped: number;
}

/**
 * Agent mode's drafting: a DM, written with the learned patterns, for up to `limit` of the project's
 * live leads scoring at least `minScore` whose author has none yet, most promising first.
 */
export async function draftDmsForBestLeads(
  ctx: AppContext,
  projectId: string,
  options: { minScore: number; limit: number; patterns: TLearningPatterns | null },
): Promise<DraftReport> {
  const report: DraftReport = { generated: 0, failed: 0, skipped: 0 };
  if (options.limit <= 0) return report;
  const product = await requireProduct(ctx, projectId);
  // Too-old leads are left out rather than skipped, so they never use up the limit.
  const planned = await leadsWithoutDm(ctx.db, projectId, options.minScore, expiryCutoff(ctx), options.limit);
  for (const kind of ['post', 'comment'] as const) {
    const ids = planned.filter((p) => (p.kind === 'comment' ? 'comment' : 'post') === kind).map((p) => p.id);
    const rows = await findLeadSources(ctx.db, projectId, kind, ids);
    const outcomes = await generateDms(ctx, projectId, product, rows.map(leadCandidate), {
      patterns: options.patterns,
    });
    for (const o of outcomes) report[o.kind === 'generated' ? 'generated' : o.kind] += 1;
  }
  return report;
}
