import { STATS_YEAR_CHOICES } from '@threadreach/contract';

/** The `YYYY-MM-DD` of a date as the calendar on this computer shows it. */
export function isoDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

function addDays(date: Date, days: number): Date {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate() + days);
}

export interface TDayRange {
  start: string;
  end: string;
}

/** Monday of the current week through today (spec section 2, /stats). */
export function currentWeek(now: Date): TDayRange {
  const sinceMonday = (now.getDay() + 6) % 7;
  return { start: isoDay(addDays(now, -sinceMonday)), end: isoDay(now) };
}

/** The quick ranges of /stats (spec section 9): each ends today. */
export const QUICK_RANGES: readonly { label: string; range: (now: Date) => TDayRange }[] = [
  { label: 'Last 7 Days', range: (now) => ({ start: isoDay(addDays(now, -6)), end: isoDay(now) }) },
  { label: 'Last 30 Days', range: (now) => ({ start: isoDay(addDays(now, -29)), end: isoDay(now) }) },
  {
    label: 'This Month',
    range: (now) => ({ start: isoDay(new Date(now.getFullYear(), now.getMonth(), 1)), end: isoDay(now) }),
  },
];

/** The current year and the four before it, newest first (spec sections 5 and 9). */
export function yearChoices(now: Date): number[] {
  return Array.from({ length: STATS_YEAR_CHOICES }, (_, i) => now.getFullYear() - i);
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
