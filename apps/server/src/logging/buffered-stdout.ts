import { openSync, writeSync } from 'node:fs';
import type pino from 'pino';
import { ReportGate, toStderr } from './report';

/** How much stdout holds before writing, and the longest a line waits. */
export const STDOUT_BLOCK_BYTES = 4096;
export const STDOUT_FLUSH_MS = 250;

/** How long a write waits for a full pipe to drain before its block is given up. */
const FULL_PIPE_WAIT_MS = 1000;
const SLEEP = new Int32Array(new SharedArrayBuffer(4));

/** Every writer (they live as long as the process), written out when it exits. */
const writers = new Set<BlockWriter>();
let exitHooked = false;

/**
 * Lines gathered and written in blocks, every write synchronous: the lines leave in the order they were
 * logged whatever happens, and nothing is left in flight when the process exits. (sonic-boom, pino's own
 * destination, measured the whole pending block on every line, and its exit flush could overtake a write
 * still in flight.)
 */
export class BlockWriter implements pino.DestinationStream {
  private lines: string[] = [];
  private length = 0;
  private readonly fd: number;
  private readonly onLost: (message: string) => void;
  private lost = 0;
  private readonly reports = new ReportGate();
  /** Marks a stream for pino: `pino(writer)` with no options would otherwise take it for its options. */
  readonly writable = true;

  /**
   * `onLost` is told, at most once a minute, how many lines could not be written (by default on stderr,
   * synchronously and never throwing: never the logger, whose lines are the ones lost).
   */
  constructor(dest: number | string, options: { onLost?: (message: string) => void } = {}) {
    this.fd = typeof dest === 'string' ? openSync(dest, 'a') : dest;
    this.onLost = options.onLost ?? toStderr;
    setInterval(() => this.flushSync(), STDOUT_FLUSH_MS).unref();
    writers.add(this);
    if (!exitHooked) {
      exitHooked = true;
      process.on('exit', () => {
        for (const writer of writers) writer.flushSync();
      });
    }
  }

  write(line: string): boolean {
    this.lines.push(line);
    // Characters, not bytes: a block only needs to be about this size.
    this.length += line.length;
    if (this.length >= STDOUT_BLOCK_BYTES) this.flushSync();
    return true;
  }

  /** Writes what is gathered now. */
  flushSync(): void {
    if (this.lines.length === 0) return;
    const count = this.lines.length;
    const block = count === 1 ? this.lines[0]! : this.lines.join('');
    this.lines = [];
    this.length = 0;
    const error = writeFully(this.fd, block);
    if (error) this.report(count, error);
  }

  private report(count: number, error: string) {
    this.lost += count;
    if (!this.reports.open()) return;
    this.onLost(`log lines could not be written (${error}): ${this.lost} lost since the last report`);
    this.lost = 0;
  }

  /** pino's `logger.flush(cb)`. */
  flush(cb?: (err?: Error) => void): void {
    this.flushSync();
    cb?.();
  }
}

/**
 * The whole block, waiting out a full non-blocking pipe (EAGAIN) for up to FULL_PIPE_WAIT_MS, then giving it
 * up (as when stdout is closed), with the reason: a log write never throws into the code that logged.
 */
function writeFully(fd: number, block: string): string | null {
  let rest: Buffer | null = null;
  let waitedMs = 0;
  for (;;) {
    try {
      if (rest === null) {
        const written = writeSync(fd, block);
        if (written >= Buffer.byteLength(block)) return null;
        rest = Buffer.from(block).subarray(written);
      } else {
        rest = rest.subarray(writeSync(fd, rest));
        if (rest.length === 0) return null;
      }
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'write failed';
      if (code !== 'EAGAIN') return code;
      if (waitedMs >= FULL_PIPE_WAIT_MS) return `the pipe stayed full for ${FULL_PIPE_WAIT_MS} ms`;
      Atomics.wait(SLEEP, 0, 0, 1);
      waitedMs++;
    }
  }
}

/**
 * stdout for the log, written in blocks of about 4 KB instead of one write per line (one request line each
 * was a system call per request), and at least every 250 ms; what is left is written when the process
 * exits, so lines logged up to `process.exit` (the shutdown path, a fatal start) are kept. `dest` is
 * another file descriptor or path (the benchmarks write to /dev/null this way).
 */
export function bufferedStdout(
  dest: number | string = 1,
  options: ConstructorParameters<typeof BlockWriter>[1] = {},
): BlockWriter {
  return new BlockWriter(dest, options);
}
