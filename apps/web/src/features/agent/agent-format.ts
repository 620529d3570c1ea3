import { ACCOUNT_DAILY_MESSAGE_LIMIT, type TAgentSettings, type TAgentLogType } from '@threadreach/contract';

import { hourLabel, WEEKDAYS } from '../../components/ui/working-schedule-fields';

/** Working days as a reader says them: 'Mon-Fri', 'Mon, Wed, Sat', 'Every day'. */
export function daysLabel(days: readonly number[]): string {
  const sorted = [...new Set(days)].sort((a, b) => a - b);
  if (sorted.length === 7) return 'Every day';
  const short = (d: number) => WEEKDAYS[d - 1]!.slice(0, 3);
  const consecutive = sorted.every((d, i) => i === 0 || d === sorted[i - 1]! + 1);
  if (consecutive && sorted.length >= 3) return `${short(sorted[0]!)}-${short(sorted.at(-1)!)}`;
  return sorted.map(short).join(', ');
}

/** The one-line summary of the current agent settings shown in step 4. */
export function settingsSummary(settings: TAgentSettings): string {
  return [
    `${settings.daily_dm_limit_per_profile} DMs per profile per day` +
      // Each account's own daily limit is the lower one then (record 025).
      (settings.daily_dm_limit_per_profile > ACCOUNT_DAILY_MESSAGE_LIMIT
        ? ` (an account sends at most ${ACCOUNT_DAILY_MESSAGE_LIMIT})`
        : ''),
    `${settings.delay_range_min}-${settings.delay_range_max} s between messages`,
    `${daysLabel(settings.working_days)} ${hourLabel(settings.working_hours_start)}-${hourLabel(settings.working_hours_end)} ${settings.timezone}`,
    `intent ${settings.min_intent_score}+`,
  ].join(' · ');
}

export const percent = (share: number) => `${Math.round(share * 100)}%`;

/** API words (very_brief, call_to_action) as screen words. */
export const words = (value: string) => {
  const text = value.replace(/_/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
};

export const LOG_TYPE_LABELS: Record<TAgentLogType, string> = {
  search: 'Search',
  dm_generation: 'DM generation',
  // Entries of this type hand DMs to the paced queue; they go out afterwards.
  dm_sent: 'Sending',
  error: 'Error',
  other: 'Other',
};

export const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : 'Never');
