import type { RedditAccountRow } from './accounts.table';
import { zonedParts } from './zoned-time';

export type WorkingWindow = Pick<
  RedditAccountRow,
  'workingDays' | 'workingHoursStart' | 'workingHoursEnd' | 'timezone'
>;

const HOUR_MS = 3_600_000;
/** A week and a day of hours: every weekly window has started again by then. */
const SEARCH_HOURS = 8 * 24;

/**
 * Whether a local hour is a working one: the end hour is exclusive, a start after the end spans
 * midnight (each part counted on its own day), and equal hours mean the whole day.
 */
function isWorkingHour(window: WorkingWindow, hour: number): boolean {
  const { workingHoursStart: start, workingHoursEnd: end } = window;
  if (start === end) return true;
  return start < end ? hour >= start && hour < end : hour >= start || hour < end;
}

/** True when the instant falls on a working day and hour in the account's zone. */
export function isWithinWorkingHours(window: WorkingWindow, atMs: number): boolean {
  const local = zonedParts(atMs, window.timezone);
  return window.workingDays.includes(local.weekday) && isWorkingHour(window, local.hour);
}

/**
 * The first instant at or after `fromMs` inside the working window: `fromMs` itself when it is inside,
 * otherwise the start of the next working hour. Null when the window has no working day at all.
 */
export function nextWorkingInstant(window: WorkingWindow, fromMs: number): number | null {
  if (isWithinWorkingHours(window, fromMs)) return fromMs;
  const local = zonedParts(fromMs, window.timezone);
  // The local hour's start: whole-minute offsets keep it a whole number of minutes back.
  let at = Math.floor(fromMs / 60_000) * 60_000 - local.minute * 60_000;
  for (let i = 0; i < SEARCH_HOURS; i++) {
    at += HOUR_MS;
    if (isWithinWorkingHours(window, at)) return at;
  }
  return null;
}
