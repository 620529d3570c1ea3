import type { TCampaignStatistics, TReplyStatus } from '@threadreach/contract';

export const REPLY_STATUS_LABELS: Record<TReplyStatus, string> = {
  replied: 'Replied',
  no_reply: 'No reply',
  refused: 'Refused',
};

export const REPLY_STATUS_COLORS: Record<TReplyStatus, string> = {
  replied: 'green',
  no_reply: 'gray',
  refused: 'red',
};

/** A rate of 0 to 1 as a percentage with at most one decimal: 0.6667 -> '66.7%'. */
export function formatRate(rate: number): string {
  return `${Math.round(rate * 1000) / 10}%`;
}

/** The cards of the campaign statistics, in order. */
export function statisticCards(s: TCampaignStatistics): Array<{ label: string; value: string }> {
  const n = new Intl.NumberFormat('en-US');
  return [
    { label: 'Generated', value: n.format(s.generated) },
    { label: 'Sent', value: n.format(s.sent) },
    { label: 'Failed', value: n.format(s.failed) },
    { label: 'Expired', value: n.format(s.expired) },
    { label: 'Replied', value: n.format(s.replied) },
    { label: 'Reply rate', value: formatRate(s.reply_rate) },
  ];
}
