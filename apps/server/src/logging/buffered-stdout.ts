import { writeSync } from 'node:fs';
import pino from 'pino';

/** How much stdout holds before writing, and the longest a line waits. */
export const STDOUT_BLOCK_BYTES = 16_384;
export const STDOUT_FLUSH_MS = 250;

/** The lines each open stdout still holds, written out first when the process exits. */
const holding = new Set<() => void>();
let exitHooked = false;

function writeHeldOnExit(writeHeld: () => void) {
  if (!exitHooked) {
    exitHooked = true;
    // Before pino's own exit hook, which writes what sonic-boom holds synchronously.
    process.prependListener('exit', () => {
      for (const write of holding) write();
    });
  }
  holding.add(writeHeld);
}

export type BufferedStdout = pino.DestinationStream & {
  flush(cb?: (err?: Error) => void): void;
  flushSync(): void;
};

/**
 * stdout for the log, written in blocks of about 16 KB instead of one write per line (one request line
 * each was a system call per request), and at least every 250 ms. Lines are gathered here and handed to
 * sonic-boom a block at a time: sonic-boom's own buffer measures its whole pending text on every line,
 * which cost more per line than the rest of stdout; and each asynchronous write has a cost of its own,
 * which 4 KB blocks still made a few µs a line. Lines logged up to `process.exit` (the shutdown
 * path, a fatal start) are written synchronously on exit. `dest` is another file descriptor or path (the
 * benchmarks write to /dev/null this way).
 */
export function bufferedStdout(dest: number | string = 1): BufferedStdout {
  const out = pino.destination({ dest, sync: false });
  let lines: string[] = [];
  let length = 0;
  const take = (): string | null => {
    if (lines.length === 0) return null;
    const block = lines.join('');
    lines = [];
    length = 0;
    return block;
  };
  const writeBlock = () => {
    const block = take();
    if (block !== null) out.write(block);
  };
  const writeHeld = () => {
    const block = take();
    try {
      out.flushSync();
      // sonic-boom's descriptor (its types omit it): handed to sonic-boom, the block would start an
      // asynchronous write that never ends.
      if (block !== null) writeSync((out as unknown as { fd: number }).fd, block);
    } catch {
      // Not open yet, or closed: nothing can be written.
    }
  };
  const timer = setInterval(() => {
    try {
      writeBlock();
    } catch {
      // Closed between two ticks: nothing left to write.
    }
  }, STDOUT_FLUSH_MS).unref();
  writeHeldOnExit(writeHeld);
  out.once('close', () => {
    clearInterval(timer);
    holding.delete(writeHeld);
  });
  return {
    write(line: string) {
      lines.push(line);
      // Characters, not bytes: near enough for where a block ends.
      length += line.length;
      if (length >= STDOUT_BLOCK_BYTES) writeBlock();
      return true;
    },
    flush(cb) {
      writeBlock();
      out.flush(cb);
    },
    flushSync() {
      writeHeld();
    },
  };
}
