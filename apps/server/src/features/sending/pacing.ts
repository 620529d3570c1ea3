import { startOfZonedDay, zonedInstant, zonedParts } from '../accounts';

/** What pacing needs to know of one sending account. */
export interface PacingAccount {
  id: string;
  timezone: string;
  /** ISO weekdays (1 = Monday … 7 = Sunday). */
  workingDays: readonly number[];
  workingHoursStart: number;
  workingHoursEnd: number;
  /** Seconds between two sends of the account. */
  delayRangeMin: number;
  delayRangeMax: number;
  /** How many sends the account may make on the local day of this instant (warm-up included). */
  capacityAt(atMs: number): number;
  /** Sends already claimed or queued, by the start of their local day (see `dayKey`). */
  booked: Map<number, number>;
  /** The latest send claimed: the next one keeps a delay after it. */
  lastAt: number | null;
  /**
   * Sends already queued, in time order: new ones go into the room between them, each at least the
   * account's least delay from every one of them, instead of after the last.
   */
  queuedAt: readonly number[];
  /** Reddit asked the account to wait until then. */
  notBefore: number | null;
}

export interface PlannedSend {
  accountId: string;
  at: number;
}

/** A working window of one local day: sends go at or after `start` and before `end`. */
export interface WorkingWindow {
  dayStart: number;
  start: number;
  end: number;
}

/** Days searched for a working window: a week always holds one when any working day is set. */
const WINDOW_SEARCH_DAYS = 8;
/** Planning gives up after this many working days per account; what is left stays unplanned. */
const MAX_ROUNDS = 400;

/** The key of an instant's local day in the account's zone (its local midnight). */
export function dayKey(atMs: number, timezone: string): number {
  return startOfZonedDay(atMs, timezone);
}

/**
 * The first working window at or after `fromMs` in the account's zone, its start moved up to `fromMs`
 * when that falls inside it. The hours read as the account's capacity reads them (record 021): the end
 * hour is exclusive, equal hours are the whole day, and a start after the end spans midnight, each part
 * on its own day (a working day holds 00:00 to the end and the start to midnight). Null when no weekday
 * is a working day.
 */
export function nextWorkingWindow(
  account: Pick<PacingAccount, 'timezone' | 'workingDays' | 'workingHoursStart' | 'workingHoursEnd'>,
  fromMs: number,
): WorkingWindow | null {
  const days = new Set(account.workingDays);
  if (![1, 2, 3, 4, 5, 6, 7].some((d) => days.has(d))) return null;
  const { workingHoursStart: startHour, workingHoursEnd: endHour, timezone } = account;
  const today = zonedParts(fromMs, timezone);
  for (let offset = 0; offset < WINDOW_SEARCH_DAYS; offset++) {
    const date = new Date(Date.UTC(today.year, today.month - 1, today.day + offset));
    const local = { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
    const weekday = ((date.getUTCDay() + 6) % 7) + 1;
    if (!days.has(weekday)) continue;
    const dayStart = zonedInstant(local, timezone);
    const midnight = zonedInstant({ ...local, day: local.day + 1 }, timezone);
    const at = (hour: number) => zonedInstant({ ...local, hour }, timezone);
    const spans: [number, number][] =
      startHour === endHour
        ? [[dayStart, midnight]]
        : startHour < endHour
          ? [[at(startHour), at(endHour)]]
          : [
              [dayStart, at(endHour)],
              [at(startHour), midnight],
            ];
    for (const [start, end] of spans) {
      if (end <= fromMs || end <= start) continue;
      return { dayStart, start: Math.max(start, fromMs), end };
    }
  }
  return null;
}

/** True when the instant lies inside one of the account's working windows. */
export function isWorkingTime(
  account: Pick<PacingAccount, 'timezone' | 'workingDays' | 'workingHoursStart' | 'workingHoursEnd'>,
  atMs: number,
): boolean {
  return nextWorkingWindow(account, atMs)?.start === atMs;
}

/** A delay between two sends: whole seconds drawn uniformly from the account's range. */
export function drawDelayMs(
  account: Pick<PacingAccount, 'delayRangeMin' | 'delayRangeMax'>,
  random: () => number,
): number {
  const min = Math.min(account.delayRangeMin, account.delayRangeMax);
  const max = Math.max(account.delayRangeMin, account.delayRangeMax);
  const seconds = min + Math.min(max - min, Math.floor(random() * (max - min + 1)));
  return seconds * 1000;
}

/**
 * Splits `count` over accounts in proportion to what each has free (largest remainders first), never
 * giving one more than it has.
 */
export function splitProportionally(count: number, free: readonly number[]): number[] {
  const total = free.reduce((a, b) => a + b, 0);
  const take = Math.min(count, total);
  if (take <= 0) return free.map(() => 0);
  const exact = free.map((f) => (f * take) / total);
  const shares = exact.map(Math.floor);
  let left = take - shares.reduce((a, b) => a + b, 0);
  const order = exact
    .map((e, i) => ({ i, rest: e - Math.floor(e) }))
    .sort((a, b) => b.rest - a.rest || free[b.i]! - free[a.i]! || a.i - b.i);
  for (const { i } of order) {
    if (left === 0) break;
    if (shares[i]! < free[i]!) {
      shares[i]!++;
      left--;
    }
  }
  return shares;
}

/** The first instant from `at` on that keeps the account's least delay from each of its queued sends. */
function clearOfQueued(account: PacingAccount, at: number): number {
  const gap = Math.min(account.delayRangeMin, account.delayRangeMax) * 1000;
  let t = at;
  for (const q of account.queuedAt) {
    if (q - t >= gap) break;
    if (t - q < gap) t = q + gap;
  }
  return t;
}

/**
 * When `count` sends go: day by day (each account's own working days), the sends of a day are split over
 * the accounts in proportion to what each has free that day (its warm-up cap less what is booked);
 * each account's sends keep a random delay within its range, inside its working hours, and after
 * anything Reddit asked it to wait; they fill the room between sends already queued rather than wait
 * for the last of them (a day with room is used, whatever is queued after it). What does not fit a day
 * rolls to the next working day. Sends that find no room within MAX_ROUNDS working days are left out of
 * the answer.
 */
export function planSends(
  accounts: readonly PacingAccount[],
  count: number,
  nowMs: number,
  random: () => number,
): PlannedSend[] {
  const planned: PlannedSend[] = [];
  const state = accounts.map((account) => {
    let cursor = Math.max(nowMs, account.notBefore ?? 0);
    if (account.lastAt !== null) cursor = Math.max(cursor, account.lastAt + drawDelayMs(account, random));
    return { account, booked: new Map(account.booked), cursor, window: nextWorkingWindow(account, cursor) };
  });
  let remaining = count;
  for (let round = 0; round < MAX_ROUNDS && remaining > 0; round++) {
    const live = state.filter((s) => s.window !== null);
    if (live.length === 0) break;
    const free = live.map(({ account, booked, window }) => {
      const used = booked.get(window!.dayStart) ?? 0;
      return Math.max(0, account.capacityAt(window!.start) - used);
    });
    const shares = splitProportionally(remaining, free);
    live.forEach((s, i) => {
      const window = s.window!;
      let at = clearOfQueued(s.account, Math.max(window.start, s.cursor));
      for (let n = 0; n < shares[i]! && at < window.end; n++) {
        planned.push({ accountId: s.account.id, at });
        s.booked.set(window.dayStart, (s.booked.get(window.dayStart) ?? 0) + 1);
        remaining--;
        at = clearOfQueued(s.account, at + drawDelayMs(s.account, random));
      }
      s.cursor = Math.max(at, s.cursor);
      s.window = nextWorkingWindow(s.account, Math.max(s.cursor, window.end));
    });
  }
  return planned.sort((a, b) => a.at - b.at);
}

/** A small seeded generator (mulberry32), for pacing that must repeat exactly (tests, replays). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
