import {
  DAY_COLUMN_VALUES as DAY,
  PROJECT_COLUMN_VALUES as PROJECT,
  type TProjectStatistics,
  type TStatisticsDay,
} from '@threadreach/contract';
import type { TColumn } from './column-filters';
import { formatDay } from './stats-dates';

/** The by-project view's columns (spec section 2, /stats). */
export const PROJECT_COLUMNS: readonly TColumn<TProjectStatistics>[] = [
  { key: 'project', label: 'Project', value: PROJECT.project },
  { key: 'accounts', label: 'Accounts', value: PROJECT.accounts },
  { key: 'keywords', label: 'Keywords', value: PROJECT.keywords },
  { key: 'subreddits', label: 'Subreddits', value: PROJECT.subreddits },
  { key: 'posts', label: 'Posts', value: PROJECT.posts },
  { key: 'generated', label: 'DMs Generated', value: PROJECT.generated },
  { key: 'sent', label: 'Sent', value: PROJECT.sent },
  { key: 'failed', label: 'Failed', value: PROJECT.failed },
  { key: 'expired', label: 'Expired', value: PROJECT.expired },
];

/** The column pre-filtered to its non-zero values when projects first load. */
export const ACCOUNTS_COLUMN = PROJECT_COLUMNS[1]!;

/** The by-day view's columns. */
export const DAY_COLUMNS: readonly TColumn<TStatisticsDay>[] = [
  { key: 'date', label: 'Date', value: DAY.date, format: formatDay },
  { key: 'posts', label: 'Posts', value: DAY.posts },
  { key: 'generated', label: 'Generated', value: DAY.generated },
  { key: 'sent', label: 'Sent', value: DAY.sent },
  { key: 'failed', label: 'Failed', value: DAY.failed },
  { key: 'expired', label: 'Expired', value: DAY.expired },
  { key: 'projects', label: 'Projects', value: DAY.projects },
];
