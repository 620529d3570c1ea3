import type { TSendingItem, TSendingState, TSendingStatus } from '@threadreach/contract';
import type { SendingCounts, SendingRow } from './claim.repository';

const iso = (d: Date | null) => d?.toISOString() ?? null;

export function presentSendingItem({ dm, accountUsername }: SendingRow): TSendingItem {
  return {
    id: dm.id,
    project_id: dm.projectId,
    recipient_username: dm.recipientUsername,
    state: dm.state as TSendingState,
    account_id: dm.accountId,
    account_username: accountUsername,
    scheduled_for: iso(dm.scheduledFor),
    claimed_at: iso(dm.claimedAt),
    sent_at: iso(dm.sentAt),
    failed_at: iso(dm.failedAt),
    outcome_code: dm.outcomeCode,
    outcome_reason: dm.outcomeReason,
    attempts: dm.attempts,
    updated_at: dm.updatedAt.toISOString(),
  };
}

export function presentSendingStatus(
  page: { rows: SendingRow[]; total: number; limit: number; offset: number },
  counts: SendingCounts,
  next: { at: Date | null; wait: TSendingStatus['next_wait'] },
): TSendingStatus {
  return {
    items: page.rows.map(presentSendingItem),
    total: page.total,
    limit: page.limit,
    offset: page.offset,
    counts,
    next_scheduled_for: iso(next.at),
    next_wait: next.wait,
  };
}
