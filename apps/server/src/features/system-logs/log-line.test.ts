import { describe, expect, it } from 'vitest';
import { levelOf, MESSAGE_MAX, toSystemLogRow } from './log-line';

describe('log lines', () => {
  it('names pino levels as /logs does', () => {
    expect([10, 20, 30, 40, 50, 60].map(levelOf)).toEqual([
      'DEBUG',
      'DEBUG',
      'INFO',
      'WARNING',
      'ERROR',
      'CRITICAL',
    ]);
  });

  it('keeps what /logs shows: level, logger, and the message with its error, cut to length', () => {
    const row = toSystemLogRow({
      level: 50,
      time: 0,
      name: 'ai-service',
      msg: 'draft failed',
      err: { type: 'AiError', message: 'model timed out', stack: 'at x' },
      projectId: 'p1',
      attempts: 2,
      session_id: 's',
      user_email: 'a@b.c',
      nested: { a: 1 },
      note: 'x'.repeat(600),
    })!;
    // The line's other fields stay on stdout.
    expect(row).toEqual({
      timestamp: new Date(0),
      level: 'ERROR',
      logger: 'ai-service',
      message: 'draft failed: AiError: model timed out',
    });
    expect(toSystemLogRow({ level: 30, time: 0, msg: 'm'.repeat(5000) })!.message).toHaveLength(MESSAGE_MAX);
    expect(toSystemLogRow({ level: 30, time: 0, name: 'other', msg: 'x' })!.logger).toBe('server');
  });
});
