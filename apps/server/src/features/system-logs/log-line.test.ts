import { describe, expect, it } from 'vitest';
import { levelOf, MESSAGE_MAX, scrubSecrets, toSystemLogRow } from './log-line';

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

  it('scrubs tokens and secrets out of free text', () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc_def-123';
    expect(scrubSecrets(`token ${jwt} used`)).toBe('token [redacted] used');
    expect(scrubSecrets('Authorization: Bearer abc.def')).toBe('Authorization: [redacted]');
    expect(scrubSecrets('header Bearer abc123')).toBe('header Bearer [redacted]');
    expect(scrubSecrets('postgres://app:pw@db:5432/x')).toBe('postgres://[redacted]@db:5432/x');
    expect(scrubSecrets('/cb?code=abc&state=xyz&page=2')).toBe('/cb?code=[redacted]&state=[redacted]&page=2');
    expect(scrubSecrets('{"client_secret": "s3cr3t", "name": "bot"}')).toBe(
      '{"client_secret": "[redacted]", "name": "bot"}',
    );
    expect(scrubSecrets('password=hunter2; refresh_token=r1')).toBe(
      'password=[redacted]; refresh_token=[redacted]',
    );
    expect(scrubSecrets('GET /api/v1/projects 200 3ms')).toBe('GET /api/v1/projects 200 3ms');
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
