import { PERMANENT_SUPPRESSION_REASONS, type TDoNotContactEntry } from '@threadreach/contract';
import type { SuppressionRow } from './suppressions.table';

export function presentSuppression(row: SuppressionRow): TDoNotContactEntry {
  return {
    username: row.username,
    reason: row.reason,
    note: row.note,
    created_at: row.createdAt.toISOString(),
    removable: !PERMANENT_SUPPRESSION_REASONS.includes(row.reason),
  };
}
