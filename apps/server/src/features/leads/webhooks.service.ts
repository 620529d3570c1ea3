import type {
  TMessageResponse,
  TUpdateWebhookRequest,
  TWebhook,
  TWebhookPayload,
} from '@threadreach/contract';
import type { AppContext } from '../../context';
import { AppError, badRequest, notFound } from '../../http/errors';
import { redditWebUrl } from '../../integrations/reddit';
import { SecretDecryptError } from '../../security/secrets';
import { presentWebhook, presentWebhookLead } from './leads.presenter';
import { markDelivered, undeliveredLeads } from './leads.repository';
import type { ProjectWebhookRow } from './leads.table';
import {
  checkWebhookUrl,
  generateWebhookSecret,
  postWebhook,
  WebhookUrlError,
  type WebhookResult,
} from './webhook.sender';
import {
  deleteWebhook,
  dueWebhookProjects,
  findWebhook,
  recordDeliveryOutcome,
  saveWebhook,
} from './webhooks.repository';

/** Leads per POST. */
export const WEBHOOK_BATCH_SIZE = 100;
/** POSTs per project in one delivery run; what is left waits for the next run. */
const BATCHES_PER_RUN = 10;
const FIRST_RETRY_MS = 60_000;
const LONGEST_RETRY_MS = 60 * 60_000;

const secretRef = (projectId: string) => ({
  table: 'project_webhooks',
  rowId: projectId,
  column: 'secret_ciphertext',
});

const isProduction = (ctx: AppContext) => ctx.config.env === 'production';

/** The wait before the next attempt after `failures` failed deliveries in a row: 1 min, doubling, up to 1 h. */
export function retryDelayMs(failures: number): number {
  return Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, failures - 1));
}

export async function getWebhook(ctx: AppContext, projectId: string): Promise<TWebhook> {
  return presentWebhook(await findWebhook(ctx.db, projectId));
}

async function checkUrl(ctx: AppContext, url: string): Promise<void> {
  try {
    await checkWebhookUrl(url, isProduction(ctx));
  } catch (error) {
    if (error instanceof WebhookUrlError) throw badRequest(error.detail, error.code);
    throw error;
  }
}

/**
 * Sets, changes, disables or (url null) removes the project's webhook. A new webhook, or a rotation, gets
 * a new signing secret, shown in this answer only. Leads are delivered from the moment the webhook is
 * created or enabled again; a changed URL or a re-enabled webhook is tried again at once.
 */
export async function updateWebhook(
  ctx: AppContext,
  projectId: string,
  input: Required<Pick<TUpdateWebhookRequest, 'url'>> & { enabled: boolean; rotate_secret: boolean },
): Promise<TWebhook> {
  if (input.url === null) {
    await deleteWebhook(ctx.db, projectId);
    ctx.log.info({ projectId }, 'lead webhook removed');
    return presentWebhook(null);
  }
  await checkUrl(ctx, input.url);
  const current = await findWebhook(ctx.db, projectId);
  const now = new Date(ctx.clock.now());
  const newSecret = !current || input.rotate_secret ? generateWebhookSecret() : undefined;
  const reenabled = !current || (!current.enabled && input.enabled);
  const retryNow = reenabled || current.url !== input.url;
  const row = await saveWebhook(ctx.db, {
    projectId,
    url: input.url,
    secretCiphertext: newSecret
      ? ctx.secrets.encrypt(newSecret, secretRef(projectId))
      : current!.secretCiphertext,
    secretLast4: newSecret ? newSecret.slice(-4) : current!.secretLast4,
    enabled: input.enabled,
    activeSince: reenabled ? now : current.activeSince,
    failedAttempts: retryNow ? 0 : current!.failedAttempts,
    nextAttemptAt: retryNow ? null : current!.nextAttemptAt,
    updatedAt: now,
  });
  ctx.log.info(
    { projectId, enabled: row.enabled, secretRotated: !!newSecret },
    current ? 'lead webhook updated' : 'lead webhook created',
  );
  return presentWebhook(row, newSecret);
}

function signingSecret(ctx: AppContext, hook: ProjectWebhookRow): string | null {
  try {
    return ctx.secrets.decrypt(hook.secretCiphertext, secretRef(hook.projectId));
  } catch (error) {
    if (error instanceof SecretDecryptError) return null;
    throw error;
  }
}

async function send(
  ctx: AppContext,
  hook: ProjectWebhookRow,
  payload: TWebhookPayload,
): Promise<WebhookResult> {
  const secret = signingSecret(ctx, hook);
  if (secret === null)
    return { ok: false, status: 'error: the signing secret could not be read', refused: false };
  return postWebhook({
    url: hook.url,
    production: isProduction(ctx),
    secret,
    body: JSON.stringify(payload),
    timestamp: Math.floor(ctx.clock.now() / 1000),
  });
}

/** Sends a signed delivery without leads, so the customer can check their receiver and its signature check. */
export async function testWebhook(ctx: AppContext, projectId: string): Promise<TMessageResponse> {
  const hook = await findWebhook(ctx.db, projectId);
  if (!hook) throw notFound('No webhook is set for this project');
  const result = await send(ctx, hook, {
    event: 'leads.created',
    project_id: projectId,
    sent_at: new Date(ctx.clock.now()).toISOString(),
    leads: [],
  });
  const at = new Date(ctx.clock.now());
  // A receiver that answers again is tried again at once; a failed test leaves the schedule as it was.
  await recordDeliveryOutcome(ctx.db, projectId, {
    at,
    status: result.status,
    failedAttempts: result.ok ? 0 : hook.failedAttempts,
    nextAttemptAt: result.ok ? null : hook.nextAttemptAt,
  });
  ctx.log.info({ projectId, status: result.status }, 'lead webhook tested');
  if (result.ok) return { message: `Test delivery answered ${result.status}` };
  if (result.refused) throw badRequest(result.refusal.detail, result.refusal.code);
  throw new AppError(502, 'webhook_failed', `Test delivery failed: ${describeStatus(result.status)}`);
}

function describeStatus(status: string): string {
  return /^\d+$/.test(status) ? `the webhook answered ${status}` : status;
}

export interface DeliveryReport {
  delivered: number;
  /** The last attempt's status, when one was made. */
  status: string | null;
}

/**
 * Sends the project's new leads to its webhook, at most WEBHOOK_BATCH_SIZE per POST, marking each batch
 * delivered when the receiver answers 2xx. A failure is recorded and the webhook waits, twice as long
 * after each failure in a row, before the next attempt; discovery never waits for it.
 */
export async function deliverProjectWebhook(ctx: AppContext, projectId: string): Promise<DeliveryReport> {
  const hook = await findWebhook(ctx.db, projectId);
  const report: DeliveryReport = { delivered: 0, status: null };
  if (!hook?.enabled) return report;
  if (hook.nextAttemptAt && hook.nextAttemptAt.getTime() > ctx.clock.now()) return report;
  const redditOrigin = redditWebUrl(ctx.reddit.endpoints);
  for (let batch = 0; batch < BATCHES_PER_RUN; batch++) {
    const rows = await undeliveredLeads(ctx.db, projectId, hook.activeSince, WEBHOOK_BATCH_SIZE);
    if (rows.length === 0) break;
    const result = await send(ctx, hook, {
      event: 'leads.created',
      project_id: projectId,
      sent_at: new Date(ctx.clock.now()).toISOString(),
      leads: rows.map((v) => presentWebhookLead(v, redditOrigin)),
    });
    const at = new Date(ctx.clock.now());
    report.status = result.status;
    if (!result.ok) {
      const failures = hook.failedAttempts + 1;
      const nextAttemptAt = new Date(at.getTime() + retryDelayMs(failures));
      await recordDeliveryOutcome(ctx.db, projectId, {
        at,
        status: result.status,
        failedAttempts: failures,
        nextAttemptAt,
      });
      ctx.log.warn(
        { projectId, status: result.status, failures, nextAttemptAt: nextAttemptAt.toISOString() },
        'lead webhook delivery failed',
      );
      return report;
    }
    await ctx.db.transaction(async (tx) => {
      await markDelivered(
        tx,
        projectId,
        rows.map((r) => r.lead.id),
        at,
      );
      await recordDeliveryOutcome(tx, projectId, {
        at,
        status: result.status,
        failedAttempts: 0,
        nextAttemptAt: null,
      });
    });
    hook.failedAttempts = 0;
    report.delivered += rows.length;
    if (rows.length < WEBHOOK_BATCH_SIZE) break;
  }
  if (report.delivered > 0)
    ctx.log.info({ projectId, delivered: report.delivered }, 'leads delivered to webhook');
  return report;
}

/** Projects whose webhook has leads waiting and is not backing off. */
export async function projectsDueForDelivery(ctx: AppContext, limit: number): Promise<string[]> {
  return dueWebhookProjects(ctx.db, new Date(ctx.clock.now()), limit);
}
