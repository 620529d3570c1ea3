import { afterEach, describe, expect, it, vi } from 'vitest';
import type { NewSystemLogRow } from '../features/system-logs';
import { SystemLogSink } from './system-log-sink';

const line = (msg: string, level = 30) => `${JSON.stringify({ level, time: 1_000, name: 'server', msg })}\n`;

afterEach(() => {
  vi.useRealTimers();
});

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
    const batches: number[] = [];
    let release: () => void = () => {};
    const sink = new SystemLogSink({
      insert: (rows) => {
        batches.push(rows.length);
        return new Promise<void>((resolve) => (release = resolve));
      },
      batchSize: 10,
      flushIntervalMs: 60_000,
    });
    for (let i = 0; i < 10; i++) sink.write(line(`first ${i}`));
    await vi.waitFor(() => expect(batches).toEqual([10]));
    // While the first batch is stored, lines keep coming, a few at a time.
    for (let i = 0; i < 3; i++) sink.write(line(`during ${i}`));
    release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches).toEqual([10]);
    for (let i = 3; i < 12; i++) sink.write(line(`during ${i}`));
    await vi.waitFor(() => expect(batches).toEqual([10, 10]));
    release();
    // What is left goes out with the timer, or with an explicit flush.
    const flushed = sink.flush();
    await vi.waitFor(() => expect(batches).toEqual([10, 10, 2]));
    release();
    await flushed;
    expect(sink.counts).toEqual({ written: 22, dropped: 0 });
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
});
