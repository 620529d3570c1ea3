import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { loggerOptions } from './logger';
import { lazyRequestLogger } from './request-logger';

function capture(level = 'info') {
  const lines: Record<string, unknown>[] = [];
  const out = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString().trim().split('\n')) lines.push(JSON.parse(text));
      done();
    },
  });
  return { log: pino(loggerOptions(level), out), lines };
}

describe('request logger', () => {
  it('makes its child on the first line, with the bindings, and only once', () => {
    const { log, lines } = capture();
    const child = vi.spyOn(log, 'child');
    const requestLog = lazyRequestLogger(log, { reqId: 'req-7' }, {});
    expect(requestLog.level).toBe('info');
    expect(child).not.toHaveBeenCalled();

    requestLog.info({ projectId: 'p1' }, 'first %s', 'line');
    requestLog.error(new Error('boom'));
    requestLog.debug('below the level');
    expect(child).toHaveBeenCalledTimes(1);
    expect(lines.map((l) => [l.reqId, l.level, l.msg, l.projectId])).toEqual([
      ['req-7', 30, 'first line', 'p1'],
      ['req-7', 50, 'boom', undefined],
    ]);
  });

  it("keeps a route's own level and passes children on", () => {
    const { log, lines } = capture('debug');
    const requestLog = lazyRequestLogger(log, { reqId: 'req-8' }, { level: 'warn' });
    expect(requestLog.level).toBe('warn');
    requestLog.info('dropped');
    requestLog.warn('kept');
    requestLog.child({ step: 'two' }).error('from a child');
    expect(lines.map((l) => [l.reqId, l.msg, l.step])).toEqual([
      ['req-8', 'kept', undefined],
      ['req-8', 'from a child', 'two'],
    ]);
  });
});
