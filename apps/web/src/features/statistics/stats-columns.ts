import type { TProjectStatistics } from '@threadreach/contract';
import type { TColumn } from './column-filters';
import type { TDayRow } from './day-rows';
import { formatDay } from './stats-dates';

/** The by-project view's columns (spec section 2, /stats). */
export const PROJECT_COLUMNS: readonly TColumn<TProjectStatistics>[] = [
  { key: 'project', label: 'Project', value: (r) => r.project_name },
  { key: 'accounts', label: 'Accounts', value: (r) => r.accounts_connected },
  { key: 'keywords', label: 'Keywords', value: (r) => r.approved_keywords },
  { key: 'subreddits', label: 'Subreddits', value: (r) => r.approved_subreddits },
  { key: 'posts', label: 'Posts', value: (r) => r.total_posts_searched },
  { key: 'generated', label: 'DMs Generated', value: (r) => r.total_messages_generated },
  { key: 'sent', label: 'Sent', value: (r) => r.sent },
  { key: 'failed', label: 'Failed', value: (r) => r.failed },
  { key: 'expired', label: 'Expired', value: (r) => r.expired },
];

/** The column pre-filtered to its non-zero values when projects first load. */
export const ACCOUNTS_COLUMN = PROJECT_COLUMNS[1]!;

/** The by-day view's columns. */
export const DAY_COLUMNS: readonly TColumn<TDayRow>[] = [
  { key: 'date', label: 'Date', value: (r) => r.date, format: formatDay },
  { key: 'posts', label: 'Posts', value: (r) => r.posts },
  { key: 'generated', label: 'Generated', value: (r) => r.generated },
  { key: 'sent', label: 'Sent', value: (r) => r.sent },
  { key: 'failed', label: 'Failed', value: (r) => r.failed },
  { key: 'expired', label: 'Expired', value: (r) => r.expired },
  { key: 'projects', label: 'Projects', value: (r) => r.project_count },
];
