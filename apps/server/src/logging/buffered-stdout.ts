import pino from 'pino';

/** How much stdout holds before writing, and the longest a line waits. */
export const STDOUT_BLOCK_BYTES = 4096;
export const STDOUT_FLUSH_MS = 250;

/**
 * stdout for the log, written in blocks of about 4 KB instead of one write per line (one request line each
 * was a system call per request), and at least every 250 ms. pino writes what is left synchronously when
 * the process exits, so lines logged up to `process.exit` (the shutdown path, a fatal start) are kept.
 * `dest` is another file descriptor or path (the API benchmark writes to /dev/null this way).
 */
export function bufferedStdout(dest: number | string = 1): pino.DestinationStream {
  const out = pino.destination({ dest, sync: false, minLength: STDOUT_BLOCK_BYTES });
  const timer = setInterval(() => {
    try {
      out.flush();
    } catch {
      // Closed between two ticks: nothing left to write.
    }
  }, STDOUT_FLUSH_MS).unref();
  out.once('close', () => clearInterval(timer));
  return out;
}
