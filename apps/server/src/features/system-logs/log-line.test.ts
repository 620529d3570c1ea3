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

  it('keeps scalar fields but nothing sensitive, nested or over-long', () => {
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
    expect(row).toMatchObject({
      level: 'ERROR',
      logger: 'ai-service',
      message: 'draft failed: AiError: model timed out',
    });
    expect(Object.keys(row.fields!)).toEqual(['projectId', 'attempts', 'note']);
    expect(String(row.fields!.note)).toHaveLength(500);
    expect(toSystemLogRow({ level: 30, time: 0, msg: 'm'.repeat(5000) })!.message).toHaveLength(MESSAGE_MAX);
    expect(toSystemLogRow({ level: 30, time: 0, name: 'other', msg: 'x' })!.logger).toBe('server');
  });
});
