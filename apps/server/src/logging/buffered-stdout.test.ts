import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BlockWriter } from './buffered-stdout';

const MODULE = pathToFileURL(path.join(import.meta.dirname, 'buffered-stdout.ts')).href;

/** A process that logs `lines` lines through the buffered stdout, then runs `then`. */
function logInChild(lines: number, then: string) {
  const code = `
    const { default: pino } = await import('pino');
    const { bufferedStdout } = await import(${JSON.stringify(MODULE)});
    const log = pino({}, bufferedStdout());
    for (let i = 0; i < ${lines}; i++) log.info('line ' + i);
    ${then}
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    cwd: import.meta.dirname,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  // 'close', not 'exit': the child can be gone while its last lines are still in the pipe.
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  return {
    child,
    exited,
    lines: () =>
      out
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l).msg),
  };
}

describe('buffered stdout', () => {
  it('keeps every line logged before process.exit', async () => {
    const run = logInChild(50, 'process.exit(0);');
    expect(await run.exited).toBe(0);
    expect(run.lines()).toEqual(Array.from({ length: 50 }, (_, i) => `line ${i}`));
  }, 30_000);

  it('keeps the order of lines across many blocks up to process.exit, in processes run side by side', async () => {
    const runs = Array.from({ length: 6 }, () => logInChild(3000, 'process.exit(0);'));
    const expected = Array.from({ length: 3000 }, (_, i) => `line ${i}`);
    for (const run of runs) {
      expect(await run.exited).toBe(0);
      expect(run.lines()).toEqual(expected);
    }
  }, 60_000);

  it('reports lines it could not write, at most once a minute, and never throws', () => {
    const readOnly = openSync('/dev/null', 'r');
    try {
      const reports: string[] = [];
      const writer = new BlockWriter(readOnly, { onLost: (m) => reports.push(m) });
      writer.write('{"msg":"one"}\n');
      writer.write('{"msg":"two"}\n');
      expect(() => writer.flushSync()).not.toThrow();
      writer.write('{"msg":"three"}\n');
      writer.flushSync();
      expect(reports).toEqual(['log lines could not be written (EBADF): 2 lost since the last report']);
    } finally {
      closeSync(readOnly);
    }
  });

  it('writes a short line without waiting for a full block', async () => {
    const run = logInChild(1, 'setTimeout(() => {}, 20_000);');
    try {
      await expect.poll(run.lines, { timeout: 10_000, interval: 50 }).toEqual(['line 0']);
    } finally {
      run.child.kill('SIGKILL');
      await run.exited;
    }
  }, 30_000);
});
