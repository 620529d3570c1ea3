import { writeSync } from 'node:fs';

/** How often a log destination may report its own failures. */
const REPORT_EVERY_MS = 60_000;

/**
 * Opens at most once a minute: a destination that fails on every line reports once, not on every line.
 */
export class ReportGate {
  private lastMs = -Infinity;

  open(nowMs = Date.now()): boolean {
    if (nowMs - this.lastMs < REPORT_EVERY_MS) return false;
    this.lastMs = nowMs;
    return true;
  }
}

/**
 * A log destination's own failure, on stderr: synchronously and never throwing, and never through the
 * logger, whose lines are the ones that failed.
 */
export function toStderr(message: string): void {
  try {
    writeSync(2, `${message}\n`);
  } catch {
    // stderr is gone too: nothing is left to tell.
  }
}
