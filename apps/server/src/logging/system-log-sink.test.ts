import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toSystemLogRow, type NewSystemLogRow } from '../features/system-logs';
import { loggerOptions } from '../http/logger';
import { SystemLogSink } from './system-log-sink';

const line = (msg: string, level = 30) => `${JSON.stringify({ level, time: 1_000, name: 'server', msg })}\n`;

afterEach(() => {
  vi.useRealTimers();
});

/** A sink of 10-line batches whose every insert waits for `release()`; `batches` holds their sizes. */
function heldSink() {
  const held = { batches: [] as number[], release: () => {} };
  const sink = new SystemLogSink({
    insert: (rows) => {
      held.batches.push(rows.length);
      return new Promise<void>((resolve) => (held.release = resolve));
    },
    batchSize: 10,
    flushIntervalMs: 60_000,
  });
  return { sink, held };
}

describe('system log sink', () => {
  it('writes a full batch at once and the rest after the interval', async () => {
    vi.useFakeTimers();
    const batches: NewSystemLogRow[][] = [];
    const sink = new SystemLogSink({
      insert: async (rows) => void batches.push(rows),
      batchSize: 3,
      flushIntervalMs: 500,
    });
    for (const m of ['a', 'b', 'c']) sink.write(line(m));
    await vi.advanceTimersByTimeAsync(0);
    expect(batches.map((b) => b.map((r) => r.message))).toEqual([['a', 'b', 'c']]);
    sink.write(line('d'));
    await vi.advanceTimersByTimeAsync(499);
    expect(batches).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(batches.map((b) => b.map((r) => r.message))).toEqual([['a', 'b', 'c'], ['d']]);
    expect(sink.counts).toEqual({ written: 4, dropped: 0 });
  });

  it('stores the lines that arrive during an insert in full batches, not one small insert behind each', async () => {
    const { sink, held } = heldSink();
    for (let i = 0; i < 10; i++) sink.write(line(`first ${i}`));
    await vi.waitFor(() => expect(held.batches).toEqual([10]));
    // While the first batch is stored, lines keep coming, a few at a time.
    for (let i = 0; i < 3; i++) sink.write(line(`during ${i}`));
    held.release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(held.batches).toEqual([10]);
    for (let i = 3; i < 12; i++) sink.write(line(`during ${i}`));
    await vi.waitFor(() => expect(held.batches).toEqual([10, 10]));
    held.release();
    // What is left goes out with the timer, or with an explicit flush.
    const flushed = sink.flush();
    await vi.waitFor(() => expect(held.batches).toEqual([10, 10, 2]));
    held.release();
    await flushed;
    expect(sink.counts).toEqual({ written: 22, dropped: 0 });
  });

  it('stores on a flush only what was queued, so steady load after it still goes in full batches', async () => {
    const { sink, held } = heldSink();
    for (let i = 0; i < 3; i++) sink.write(line(`before ${i}`));
    const flushed = sink.flush();
    await vi.waitFor(() => expect(held.batches).toEqual([3]));
    // Lines keep coming while each insert runs: none of them may start an insert of their own.
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 2; i++) sink.write(line(`during ${round}.${i}`));
      held.release();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await flushed;
    expect(held.batches).toEqual([3]);
    for (let i = 0; i < 4; i++) sink.write(line(`more ${i}`));
    await vi.waitFor(() => expect(held.batches).toEqual([3, 10]));
    held.release();
    await vi.waitFor(() => expect(sink.counts.written).toBe(13));
  });

  it('drops a batch the database refuses, says so once, and never throws into the logger', async () => {
    const errors: string[] = [];
    let fail = true;
    const stored: string[] = [];
    const sink = new SystemLogSink({
      insert: async (rows) => {
        if (fail) throw new Error('connection refused');
        stored.push(...rows.map((r) => r.message));
      },
      onError: (message) => errors.push(message),
    });
    expect(sink.write(line('lost 1'))).toBe(true);
    await sink.flush();
    sink.write(line('lost 2'));
    await sink.flush();
    fail = false;
    sink.write(line('kept'));
    await sink.close();
    expect(stored).toEqual(['kept']);
    expect(sink.counts).toEqual({ written: 1, dropped: 2 });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('connection refused');
    // Closed: later lines are ignored.
    sink.write(line('after close'));
    await sink.flush();
    expect(stored).toEqual(['kept']);
  });

  it('holds at most maxBuffered lines while an insert hangs, and returns from write at once', async () => {
    let release: () => void = () => {};
    const sink = new SystemLogSink({
      insert: () => new Promise<void>((resolve) => (release = resolve)),
      batchSize: 2,
      maxBuffered: 4,
    });
    for (let i = 0; i < 10; i++) expect(sink.write(line(`m${i}`))).toBe(true);
    expect(sink.counts.dropped).toBe(6);
    // The first batch is taken and hangs; two more lines fit, the third does not.
    await new Promise((resolve) => setImmediate(resolve));
    for (let i = 10; i < 13; i++) sink.write(line(`m${i}`));
    expect(sink.counts.dropped).toBe(7);
    release();
    await vi.waitFor(() => expect(sink.counts.written).toBe(2));
  });

  it('ignores what is not a log line', async () => {
    const rows: NewSystemLogRow[] = [];
    const sink = new SystemLogSink({ insert: async (batch) => void rows.push(...batch) });
    sink.write('not json\n');
    sink.write('{"msg":"no level or time"}\n');
    sink.write(line('fatal', 60));
    await sink.flush();
    expect(rows.map((r) => [r.level, r.message])).toEqual([['CRITICAL', 'fatal']]);
  });

  it("makes each row from the logger's call as its stdout line has it, bound names, errors and all", async () => {
    const rows: NewSystemLogRow[] = [];
    const sink = new SystemLogSink({ insert: async (batch) => void rows.push(...batch) });
    const stdout: string[] = [];
    const out = new Writable({
      write(chunk: Buffer, _encoding, done) {
        stdout.push(...chunk.toString().trim().split('\n'));
        done();
      },
    });
    // As the app builds its logger (context.ts).
    const log = pino(
      loggerOptions('info'),
      pino.multistream([
        { level: 'info', stream: out },
        { level: 'info', stream: sink },
      ]),
    );
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1MSJ9.c2lnbmF0dXJlLXNpZ25hdHVyZQ';
    const failed = Object.assign(
      new Error('Failed query: insert into t values ($1)\nparams: hunter2-bound'),
      {
        params: ['hunter2-bound'],
      },
    );
    log
      .child({ name: 'ai-service', job: 'draft' })
      .info({ projectId: 'p1', attempts: 2 }, 'draft %s', 'written');
    log
      .child({ name: 'http.access' })
      .info(
        { reqId: 'req-1', method: 'GET', url: '/api/v1/projects?x=1', statusCode: 200, responseTime: 1.5 },
        'GET /api/v1/projects?x=1 200 1.5ms',
      );
    log.error(new Error('boom'));
    log.error({ err: failed, projectId: 'p2' }, 'query failed');
    log.warn({
      msg: 'own message field',
      password: 'pw-1',
      proxyUrl: 'http://u:proxy-pass@10.0.0.1:8080',
      ClientSecret: 'cs-1',
      note: `with ${jwt} inside`,
    });
    await sink.flush();

    expect(rows.map((r) => [r.logger, r.level, r.message])).toEqual([
      ['ai-service', 'INFO', 'draft written'],
      ['http.access', 'INFO', 'GET /api/v1/projects?x=1 200 1.5ms'],
      ['server', 'ERROR', 'boom'],
      ['server', 'ERROR', 'query failed: Failed query: insert into t values ($1)\nparams: [redacted]'],
      ['server', 'WARNING', 'own message field'],
    ]);
    // The fields stay on stdout.
    expect(rows.every((r) => Object.keys(r).join() === 'timestamp,level,logger,message')).toBe(true);
    const stored = JSON.stringify(rows);
    for (const secret of ['hunter2-bound', 'pw-1', 'proxy-pass', 'cs-1', jwt])
      expect(stored).not.toContain(secret);
    // The same rows as parsing the lines written to stdout would give.
    expect(rows).toEqual(stdout.map((text) => toSystemLogRow(JSON.parse(text))));
  });

  it('stores what a call held when it was logged, even if its fields or error change before the batch', async () => {
    const rows: NewSystemLogRow[] = [];
    const sink = new SystemLogSink({ insert: async (batch) => void rows.push(...batch) });
    const log = pino(loggerOptions('info'), pino.multistream([{ level: 'info', stream: sink }]));
    const fields: Record<string, unknown> = { name: 'ai-service', msg: 'first message' };
    log.info(fields);
    const err = new Error('first error');
    log.error({ err }, 'failed');
    fields.name = 'http.access';
    fields.msg = 'second message';
    err.message = 'second error';
    await sink.flush();
    expect(rows.map((r) => [r.logger, r.message])).toEqual([
      ['ai-service', 'first message'],
      ['server', 'failed: first error'],
    ]);
  });
});
