import { STATS_YEAR_CHOICES } from '@threadreach/contract';

/**
 * The `YYYY-MM-DD` UTC day of a moment. The server counts figures by UTC day, so "today" is the UTC
 * day too: 23:45 on Nov 28 in Los Angeles is already Nov 29.
 */
export function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The UTC midnight `days` days after (or before) the UTC day of `date`. */
function addDays(date: Date, days: number): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + days));
}

export interface TDayRange {
  start: string;
  end: string;
}

/** Monday of the current (UTC) week through today (spec section 2, /stats). */
export function currentWeek(now: Date): TDayRange {
  const sinceMonday = (now.getUTCDay() + 6) % 7;
  return { start: isoDay(addDays(now, -sinceMonday)), end: isoDay(now) };
}

/** The quick ranges of /stats (spec section 9): each ends today (UTC). */
export const QUICK_RANGES: readonly { label: string; range: (now: Date) => TDayRange }[] = [
  { label: 'Last 7 Days', range: (now) => ({ start: isoDay(addDays(now, -6)), end: isoDay(now) }) },
  { label: 'Last 30 Days', range: (now) => ({ start: isoDay(addDays(now, -29)), end: isoDay(now) }) },
  {
    label: 'This Month',
    range: (now) => ({
      start: isoDay(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1))),
      end: isoDay(now),
    }),
  },
];

/** The current UTC year and month (1–12): the monthly figures' default. */
export function currentMonth(now: Date): { year: number; month: number } {
  return { year: now.getUTCFullYear(), month: now.getUTCMonth() + 1 };
}

/** The current (UTC) year and the four before it, newest first (spec sections 5 and 9). */
export function yearChoices(now: Date): number[] {
  return Array.from({ length: STATS_YEAR_CHOICES }, (_, i) => now.getUTCFullYear() - i);
}

export const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/** A `YYYY-MM-DD` day for people: "Mon, Jan 5, 2026". The figures count UTC days, so it reads as UTC. */
export function formatDay(day: string): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString('en-US', {
    timeZone: 'UTC',
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    year: 'numeric',
  });
}

/** A chart's axis label: "Jan 5" for a day, "Jan" for a month. */
export function shortLabel(day: string, granularity: 'day' | 'month'): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString('en-US', {
    timeZone: 'UTC',
    month: 'short',
    ...(granularity === 'day' ? { day: 'numeric' } : {}),
  });
}
