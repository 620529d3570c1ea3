import { closeSync, openSync, writeSync } from 'node:fs';
import type pino from 'pino';

/** How much stdout holds before writing, and the longest a line waits. */
export const STDOUT_BLOCK_BYTES = 4096;
export const STDOUT_FLUSH_MS = 250;

/** How long a write waits for a full pipe to drain before its block is given up. */
const FULL_PIPE_WAIT_MS = 1000;
const SLEEP = new Int32Array(new SharedArrayBuffer(4));

/** Every open writer, written out when the process exits. */
const open = new Set<BlockWriter>();
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
  private readonly ownsFd: boolean;
  private readonly timer: NodeJS.Timeout;
  private closed = false;
  /** Marks a stream for pino: `pino(writer)` with no options would otherwise take it for its options. */
  readonly writable = true;
  /** Blocks given up: stdout closed, or full for longer than a write may wait. */
  dropped = 0;

  constructor(dest: number | string) {
    this.ownsFd = typeof dest === 'string';
    this.fd = typeof dest === 'string' ? openSync(dest, 'a') : dest;
    this.timer = setInterval(() => this.flushSync(), STDOUT_FLUSH_MS).unref();
    open.add(this);
    if (!exitHooked) {
      exitHooked = true;
      process.on('exit', () => {
        for (const writer of open) writer.flushSync();
      });
    }
  }

  write(line: string): boolean {
    if (this.closed) return true;
    this.lines.push(line);
    // Characters, not bytes: a block only needs to be about this size.
    this.length += line.length;
    if (this.length >= STDOUT_BLOCK_BYTES) this.flushSync();
    return true;
  }

  /** Writes what is gathered now. */
  flushSync(): void {
    if (this.lines.length === 0) return;
    const block = this.lines.length === 1 ? this.lines[0]! : this.lines.join('');
    this.lines = [];
    this.length = 0;
    if (!writeFully(this.fd, block)) this.dropped++;
  }

  /** pino's `logger.flush(cb)`. */
  flush(cb?: (err?: Error) => void): void {
    this.flushSync();
    cb?.();
  }

  /** Writes what is left and stops taking lines. */
  end(): void {
    if (this.closed) return;
    this.flushSync();
    this.closed = true;
    clearInterval(this.timer);
    open.delete(this);
    if (this.ownsFd) closeSync(this.fd);
  }
}

/**
 * The whole block, waiting out a full non-blocking pipe (EAGAIN) for up to FULL_PIPE_WAIT_MS; false when it
 * was given up. A log write never throws into the code that logged.
 */
function writeFully(fd: number, block: string): boolean {
  let rest: Buffer | null = null;
  let waitedMs = 0;
  for (;;) {
    try {
      if (rest === null) {
        const written = writeSync(fd, block);
        if (written >= Buffer.byteLength(block)) return true;
        rest = Buffer.from(block).subarray(written);
      } else {
        rest = rest.subarray(writeSync(fd, rest));
        if (rest.length === 0) return true;
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN' || waitedMs >= FULL_PIPE_WAIT_MS) return false;
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
export function bufferedStdout(dest: number | string = 1): BlockWriter {
  return new BlockWriter(dest);
}
