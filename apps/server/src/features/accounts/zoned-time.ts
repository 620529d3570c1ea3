/** Wall-clock reading of an instant in an IANA time zone: what working hours and "today" are measured in. */
export interface ZonedParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  /** ISO weekday: 1 = Monday … 7 = Sunday (spec section 3 "working_days"). */
  weekday: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      weekday: 'short',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

const WEEKDAYS: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };

export function zonedParts(atMs: number, timeZone: string): ZonedParts {
  const parts: Record<string, string> = {};
  for (const p of formatter(timeZone).formatToParts(atMs)) parts[p.type] = p.value;
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    weekday: WEEKDAYS[parts.weekday ?? ''] ?? 1,
  };
}

/** The zone's offset from UTC at an instant, in ms (positive east of Greenwich). */
function offsetMs(atMs: number, timeZone: string): number {
  const p = zonedParts(atMs, timeZone);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute);
  return asUtc - Math.floor(atMs / 60_000) * 60_000;
}

/** The instant a local wall-clock time happens in the zone (the earlier one when a clock change repeats it). */
export function zonedInstant(
  local: { year: number; month: number; day: number; hour?: number; minute?: number },
  timeZone: string,
): number {
  const guess = Date.UTC(local.year, local.month - 1, local.day, local.hour ?? 0, local.minute ?? 0);
  const first = guess - offsetMs(guess, timeZone);
  // Across a clock change the offset at the answer differs from the one at the guess.
  const firstOffset = offsetMs(first, timeZone);
  const second = guess - firstOffset;
  // A time the clocks skip (02:30 when they go from 02:00 to 03:00) is taken an hour on, as the clock
  // reads it after the change: its hour has not come before then.
  return second === first || offsetMs(second, timeZone) === firstOffset ? second : Math.max(first, second);
}

/** Local midnight of the day the instant falls on, in the zone. */
export function startOfZonedDay(atMs: number, timeZone: string): number {
  const p = zonedParts(atMs, timeZone);
  return zonedInstant({ year: p.year, month: p.month, day: p.day }, timeZone);
}

/** Local midnight of the next day: from 26 hours after today's, days of 23 or 25 hours land on it too. */
export function startOfNextZonedDay(atMs: number, timeZone: string): number {
  return startOfZonedDay(startOfZonedDay(atMs, timeZone) + 26 * 3_600_000, timeZone);
}

/** True for a name the runtime knows as an IANA zone. */
export function isTimeZone(name: string): boolean {
  try {
    formatter(name);
    return true;
  } catch {
    return false;
  }
}
