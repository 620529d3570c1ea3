import { eq, lt } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TSystemLogsResponse } from '@threadreach/contract';
import { fixedClock } from '../../test/clock.test-support';
import { buildUser, type TestUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { toSystemLogRow } from './log-line';
import { pruneSystemLogsJob } from './prune-system-logs.job';
import { countSystemLogs, insertSystemLogs } from './system-logs.repository';
import { LOG_SETTLE_MS, systemLogsCsv } from './system-logs.service';
import { systemLogCounts, systemLogs, type NewSystemLogRow } from './system-logs.table';

// A moment no other suite writes log lines at, so a shared PostgreSQL database does not disturb the counts.
const NOW = Date.UTC(2001, 5, 1, 12, 0, 0);
const MIN = 60_000;
const at = (minutesAgo: number) => new Date(NOW - minutesAgo * MIN);
const FIVE_DAYS = 5 * 24 * 60;

const clock = fixedClock(NOW);
let t: TestApp;
let admin: TestUser;
let moderator: TestUser;
let user: TestUser;

const row = (
  minutesAgo: number,
  level: NewSystemLogRow['level'],
  logger: string,
  message: string,
): NewSystemLogRow => ({ timestamp: at(minutesAgo), level, logger, message });

beforeAll(async () => {
  t = await createTestApp({ clock });
  admin = await buildUser(t.ctx.db, t.config, { roles: ['ADMIN'] });
  moderator = await buildUser(t.ctx.db, t.config, { roles: ['MODERATOR'] });
  user = await buildUser(t.ctx.db, t.config, { roles: ['USER'] });
  // A PostgreSQL database outlives the run: this suite's year starts empty.
  const yearAfter = new Date(Date.UTC(2002, 0, 1));
  await t.ctx.db.delete(systemLogs).where(lt(systemLogs.timestamp, yearAfter));
  await t.ctx.db.delete(systemLogCounts).where(lt(systemLogCounts.hour, yearAfter));
  await insertSystemLogs(t.ctx.db, [
    row(1, 'INFO', 'http.access', 'GET /api/v1/projects 200 3ms'),
    row(2, 'ERROR', 'server', 'request failed: connection reset'),
    row(5, 'WARNING', 'ai-service', 'llm call retried'),
    row(8, 'DEBUG', 'server', 'cache warm'),
    row(20, 'INFO', 'ai-service', 'keywords generated in 100% of cases'),
    row(45, 'CRITICAL', 'server', 'out of memory'),
    row(90, 'INFO', 'server', 'outside the last hour'),
    ...Array.from({ length: 150 }, (_, i) =>
      row(24 * 60 + i, 'INFO', 'http.access', `GET /api/v1/page/${i} 200 1ms`),
    ),
    // For the CSV export: cells a spreadsheet would run, and cells that need quotes.
    row(FIVE_DAYS + 3, 'WARNING', 'server', '=HYPERLINK("http://x","y")'),
    row(FIVE_DAYS + 2, 'WARNING', 'server', '@SUM(A1), -1, +1'),
    row(FIVE_DAYS + 1, 'WARNING', 'server', 'two\nlines'),
  ]);
});
afterAll(() => t.close());

async function logs(query: string, who: TestUser = admin) {
  const res = await t.app.inject({ url: `/api/v1/system/logs${query}`, headers: who.auth });
  return { status: res.statusCode, body: res.json() as TSystemLogsResponse & { detail?: string } };
}

describe('GET /api/v1/system/logs', () => {
  it('shows the last hour newest first, with the count per level', async () => {
    const { status, body } = await logs('');
    expect(status).toBe(200);
    expect(body.logs.map((l) => l.message)).toEqual([
      'GET /api/v1/projects 200 3ms',
      'request failed: connection reset',
      'llm call retried',
      'cache warm',
      'keywords generated in 100% of cases',
      'out of memory',
    ]);
    expect(body.logs[0]).toMatchObject({
      timestamp: at(1).toISOString(),
      level: 'INFO',
      // Access lines go by the spec's name, as the Logger filter has it.
      logger_name: 'uvicorn.access',
    });
    expect(body.stats).toEqual({ total: 6, DEBUG: 1, INFO: 2, WARNING: 1, ERROR: 1, CRITICAL: 1 });
    expect(body).toMatchObject({ total: 6, limit: 100, offset: 0, counts_capped: false });
  });

  it('filters by level (any case), logger and quick period; stats keep every level', async () => {
    const errors = await logs('?level=error');
    expect(errors.body.logs.map((l) => l.message)).toEqual(['request failed: connection reset']);
    expect(errors.body.total).toBe(1);
    expect(errors.body.stats.total).toBe(6);

    const access = await logs('?logger_file=uvicorn.access');
    expect(access.body.logs.map((l) => l.logger_name)).toEqual(['uvicorn.access']);
    // The stored name is accepted too, and answers the same lines under the same name.
    const stored = await logs('?logger_file=http.access');
    expect(stored.body.logs.map((l) => l.logger_name)).toEqual(['uvicorn.access']);
    const ai = await logs('?logger_file=ai-service&period=10m');
    expect(ai.body.logs.map((l) => l.message)).toEqual(['llm call retried']);
    expect((await logs('?period=30m')).body.total).toBe(5);
  });

  it('searches the message as plain text, case-insensitively', async () => {
    expect((await logs('?search=CONNECTION')).body.logs.map((l) => l.message)).toEqual([
      'request failed: connection reset',
    ]);
    // % and _ are literal characters, not wildcards.
    expect((await logs('?search=100%25')).body.total).toBe(1);
    expect((await logs('?search=%25%25')).body.total).toBe(0);
    expect((await logs('?search=_')).body.total).toBe(0);
    expect((await logs('?search=%5C')).body.total).toBe(0);
    const found = await logs('?search=CONNECTION');
    expect(found.body).toMatchObject({ total: 1, counts_capped: false });
    expect(found.body.stats).toEqual({ total: 1, DEBUG: 0, INFO: 0, WARNING: 0, ERROR: 1, CRITICAL: 0 });
  });

  describe('a text search matching more than 1000 lines', () => {
    // Twenty days ahead, out of the other tests' ranges: 1205 lines a minute apart (every fifth a WARNING)
    // and three rare ones among them. The clock stands a day past them while these run.
    const DAY = -20 * 24 * 60;
    const range = `start_time=${at(DAY + 1300).toISOString()}&end_time=${at(DAY - 1).toISOString()}`;
    beforeAll(async () => {
      clock.t = NOW + 21 * 24 * 60 * MIN;
      await insertSystemLogs(t.ctx.db, [
        ...Array.from({ length: 1205 }, (_, i) =>
          row(DAY + i, i % 5 === 0 ? 'WARNING' : 'INFO', 'server', `Bulk sync step ${i}`),
        ),
        ...[3, 600, 1100].map((i) => row(DAY + i, 'ERROR', 'server', `bulk rare failure ${i}`)),
      ]);
    });
    afterAll(() => {
      clock.t = NOW;
    });

    it('stops counting at 1000 and still answers a page of 100, newest first', async () => {
      const { body } = await logs(`?${range}&search=bulk%20sync`);
      expect(body).toMatchObject({ total: 1000, counts_capped: true });
      expect(body.stats.total).toBe(1000);
      // The levels are lower bounds over the lines counted.
      expect(body.stats.ERROR + body.stats.DEBUG + body.stats.CRITICAL).toBe(0);
      expect(body.stats.INFO + body.stats.WARNING).toBeGreaterThanOrEqual(1000);
      expect(body.stats.INFO).toBeLessThanOrEqual(964);
      expect(body.stats.WARNING).toBeLessThanOrEqual(241);
      expect(body.logs).toHaveLength(100);
      expect(body.logs.map((l) => l.message)).toEqual(
        Array.from({ length: 100 }, (_, i) => `Bulk sync step ${i}`),
      );
    });

    it('pages past the cap through every line that exists', async () => {
      const { body } = await logs(`?${range}&search=BULK%20SYNC&offset=1100`);
      expect(body.counts_capped).toBe(true);
      expect(body.logs.map((l) => l.message)).toEqual(
        Array.from({ length: 100 }, (_, i) => `Bulk sync step ${1100 + i}`),
      );
    });

    it('counts a level filter of its own below the cap exactly', async () => {
      const { body } = await logs(`?${range}&search=bulk%20sync&level=warning`);
      expect(body).toMatchObject({ total: 241, counts_capped: true });
      expect(body.stats.total).toBe(1000);
    });

    it('counts a search matching few lines exactly', async () => {
      const { body } = await logs(`?${range}&search=bulk%20rare`);
      expect(body).toMatchObject({ total: 3, counts_capped: false });
      expect(body.stats).toEqual({ total: 3, DEBUG: 0, INFO: 0, WARNING: 0, ERROR: 3, CRITICAL: 0 });
      expect(body.logs.map((l) => l.message)).toEqual([
        'bulk rare failure 3',
        'bulk rare failure 600',
        'bulk rare failure 1100',
      ]);
    });

    it('counts exactly without a text search', async () => {
      const { body } = await logs(`?${range}&logger_file=server`);
      expect(body).toMatchObject({ total: 1208, counts_capped: false });
      expect(body.stats).toMatchObject({ INFO: 964, WARNING: 241, ERROR: 3 });
    });
  });

  it('keeps a period to the window of its first page when the next pages send its as_of', async () => {
    // A period ends a few seconds before now, when the lines logged until then are stored.
    const first = await logs('?period=1h');
    expect(first.body.as_of).toBe(new Date(NOW - LOG_SETTLE_MS).toISOString());
    // Three minutes earlier, the last hour ends before the two newest lines and reaches back to 61 min.
    const asOf = new Date(NOW - 3 * MIN).toISOString();
    const pinned = await logs(`?period=1h&as_of=${asOf}`);
    expect(pinned.body.as_of).toBe(asOf);
    expect(pinned.body.logs.map((l) => l.message)).toEqual([
      'llm call retried',
      'cache warm',
      'keywords generated in 100% of cases',
      'out of memory',
    ]);
    expect(pinned.body.stats.total).toBe(4);
    const bad = await logs('?as_of=yesterday');
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toBe(
      'as_of must be an ISO 8601 date-time with a time zone, e.g. 2030-01-31T09:30:00Z',
    );
  });

  it('keeps a custom range reaching past now to the window of its first page', async () => {
    // Three days ago until tomorrow: the seven recent lines and the 150 access lines of a day ago.
    const range = `start_time=${at(3 * 24 * 60).toISOString()}&end_time=${at(-24 * 60).toISOString()}`;
    const first = await logs(`?${range}`);
    // It ends where a period would, not tomorrow.
    expect(first.body.as_of).toBe(new Date(NOW - LOG_SETTLE_MS).toISOString());
    expect(first.body).toMatchObject({ total: 157, counts_capped: false });
    expect(first.body.logs).toHaveLength(100);
    try {
      // A minute later: a line that reached the table late, and lines logged since the first page.
      clock.t = NOW + MIN;
      await insertSystemLogs(t.ctx.db, [
        { timestamp: new Date(NOW - 1000), level: 'INFO', logger: 'server', message: 'stored late' },
        ...[10, 20, 30].map((s) => ({
          timestamp: new Date(NOW + s * 1000),
          level: 'INFO' as const,
          logger: 'server',
          message: `logged while paging ${s}`,
        })),
      ]);
      const second = await logs(`?${range}&offset=100&as_of=${first.body.as_of}`);
      expect(second.body).toMatchObject({ total: 157, as_of: first.body.as_of });
      expect(second.body.stats.total).toBe(157);
      expect(second.body.logs).toHaveLength(57);
      expect(second.body.logs[0]!.message).toBe('GET /api/v1/page/93 200 1ms');
      const shown = [...first.body.logs, ...second.body.logs].map((l) => l.id);
      expect(new Set(shown).size).toBe(157);
      // Refresh, without the as_of, takes the newest lines again.
      const fresh = await logs(`?${range}`);
      expect(fresh.body.total).toBe(161);
      expect(fresh.body.logs[0]!.message).toBe('logged while paging 30');
    } finally {
      clock.t = NOW;
    }
    // A range that ended before then answers its own end; one not yet begun is empty.
    const past = `start_time=${at(3 * 24 * 60).toISOString()}&end_time=${at(24 * 60).toISOString()}`;
    expect((await logs(`?${past}`)).body.as_of).toBe(at(24 * 60).toISOString());
    const ahead = `start_time=${at(-60).toISOString()}&end_time=${at(-120).toISOString()}`;
    expect((await logs(`?${ahead}`)).body).toMatchObject({ logs: [], total: 0 });
  });

  it('pages through a custom range 100 at a time', async () => {
    const range = `start_time=${at(3 * 24 * 60).toISOString()}&end_time=${at(24 * 60).toISOString()}`;
    const first = await logs(`?${range}&logger_file=uvicorn.access`);
    expect(first.body.total).toBe(150);
    expect(first.body.logs).toHaveLength(100);
    expect(first.body.logs[0]!.message).toBe('GET /api/v1/page/0 200 1ms');
    const second = await logs(`?${range}&logger_file=uvicorn.access&offset=100`);
    expect(second.body.logs).toHaveLength(50);
    expect(second.body.logs.at(-1)!.message).toBe('GET /api/v1/page/149 200 1ms');
  });

  it('counts a range of many hours from the hourly counts, its partial hours line by line', async () => {
    // 09:31 to 11:55 the day before: the whole hour 10:00-11:00 plus two partial hours.
    const range = `start_time=${at(24 * 60 + 149).toISOString()}&end_time=${at(24 * 60 + 5).toISOString()}`;
    const { body } = await logs(`?${range}&logger_file=uvicorn.access`);
    expect(body.total).toBe(145);
    expect(body.stats).toMatchObject({ total: 145, INFO: 145, ERROR: 0 });
    expect(body.logs.at(-1)!.message).toBe('GET /api/v1/page/104 200 1ms');
    expect((await logs(`?${range}&logger_file=server`)).body.stats.total).toBe(0);
  });

  it('refuses a bad range, level or logger with a 400 that says why', async () => {
    const cases: [string, string][] = [
      ['?level=loud', "Unknown level 'LOUD': use one of DEBUG, INFO, WARNING, ERROR, CRITICAL"],
      ['?logger_file=nginx', "Unknown logger 'nginx'"],
      ['?start_time=01-06-2001%2010:00&end_time=2001-06-01T11:00:00Z', 'ISO 8601'],
      ['?start_time=2001-06-01T10:00:00Z', 'A custom range needs both start_time and end_time'],
      ['?start_time=2001-06-01T10:00:00Z&end_time=2001-06-01T09:00:00Z', 'The range starts after it ends'],
      ['?start_time=2000-01-01T00:00:00Z&end_time=2001-06-01T09:00:00Z', 'The range is longer than 366 days'],
      ['?limit=501', 'limit'],
      [
        '?start_time=2001-02-30T10:00:00Z&end_time=2001-06-01T09:00:00Z',
        'start_time is not a real date and time',
      ],
      // The hour either side of the range must stay a year PostgreSQL can write.
      [
        '?start_time=0001-01-01T00:00:00Z&end_time=0001-01-02T00:00:00Z',
        'start_time must be a date-time between 2000 and 2100',
      ],
      [
        '?start_time=9999-12-30T00:00:00Z&end_time=9999-12-31T00:00:00Z',
        'must be a date-time between 2000 and 2100',
      ],
    ];
    for (const [query, detail] of cases) {
      const { status, body } = await logs(query);
      expect(status, query).toBe(400);
      expect(body.detail, query).toContain(detail);
    }
  });

  it('is for moderators and admins only', async () => {
    expect((await logs('', moderator)).status).toBe(200);
    const refused = await logs('', user);
    expect(refused.status).toBe(403);
    expect((await t.app.inject({ url: '/api/v1/system/logs' })).statusCode).toBe(401);
  });
});

describe('GET /api/v1/system/logs.csv', () => {
  const accessRange = `start_time=${at(3 * 24 * 60).toISOString()}&end_time=${at(24 * 60).toISOString()}`;
  const csv = (query: string, who: TestUser = admin) =>
    t.app.inject({ url: `/api/v1/system/logs.csv${query}`, headers: who.auth });

  it('answers every line the filters match, newest first, not only a page', async () => {
    const res = await csv(`?${accessRange}&logger_file=uvicorn.access`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="system-logs-2001-06-01T12-00-00.csv"',
    );
    const lines = res.body.trimEnd().split('\r\n');
    expect(lines).toHaveLength(151);
    expect(lines[0]).toBe('Timestamp,Level,Logger,Message');
    expect(lines[1]).toBe(`${at(24 * 60).toISOString()},INFO,uvicorn.access,GET /api/v1/page/0 200 1ms`);
    expect(lines[150]).toBe(
      `${at(24 * 60 + 149).toISOString()},INFO,uvicorn.access,GET /api/v1/page/149 200 1ms`,
    );
    // Read a page at a time: the same file from pages of 40.
    const ctx = { ...t.ctx, clock: fixedClock(NOW) };
    let paged = '';
    for await (const part of systemLogsCsv(
      ctx,
      {
        start_time: at(3 * 24 * 60).toISOString(),
        end_time: at(24 * 60).toISOString(),
        logger_file: 'uvicorn.access',
      },
      40,
    ))
      paged += part;
    expect(paged).toBe(res.body);
    // The level and text filters apply as on the page.
    const errors = await csv('?level=ERROR');
    expect(errors.body).toBe(
      `Timestamp,Level,Logger,Message\r\n${at(2).toISOString()},ERROR,server,request failed: connection reset\r\n`,
    );
    const search = await csv(`?${accessRange}&search=page/14`);
    expect(search.body.trimEnd().split('\r\n')).toHaveLength(1 + 11);
  });

  it('keeps to the window of the page shown, its as_of, with a custom range reaching past now', async () => {
    const shownAt = new Date(NOW - LOG_SETTLE_MS).toISOString();
    try {
      clock.t = NOW + 2 * MIN;
      await insertSystemLogs(t.ctx.db, [row(-1, 'ERROR', 'server', 'logged after the page was shown')]);
      const range = `start_time=${at(10).toISOString()}&end_time=${at(-24 * 60).toISOString()}`;
      const res = await csv(`?${range}&as_of=${shownAt}`);
      expect(res.body.trimEnd().split('\r\n').slice(1)).toEqual([
        `${at(1).toISOString()},INFO,uvicorn.access,GET /api/v1/projects 200 3ms`,
        `${at(2).toISOString()},ERROR,server,request failed: connection reset`,
        `${at(5).toISOString()},WARNING,ai-service,llm call retried`,
        `${at(8).toISOString()},DEBUG,server,cache warm`,
      ]);
      // Without an as_of, up to a few seconds ago.
      const now = await csv(`?${range}&level=ERROR`);
      expect(now.body.split('\r\n')[1]).toContain('logged after the page was shown');
    } finally {
      clock.t = NOW;
    }
  });

  it('keeps a cell a spreadsheet would run as a formula as text, and quotes commas, quotes and line breaks', async () => {
    const dayAt = (minute: number) => at(FIVE_DAYS + minute);
    const res = await csv(`?start_time=${dayAt(4).toISOString()}&end_time=${dayAt(0).toISOString()}`);
    expect(res.body).toBe(
      'Timestamp,Level,Logger,Message\r\n' +
        `${dayAt(1).toISOString()},WARNING,server,"two\nlines"\r\n` +
        `${dayAt(2).toISOString()},WARNING,server,"'@SUM(A1), -1, +1"\r\n` +
        `${dayAt(3).toISOString()},WARNING,server,"'=HYPERLINK(""http://x"",""y"")"\r\n`,
    );
  });

  it('refuses a bad range with a 400 that says why, and is for moderators and admins only', async () => {
    const bad = await csv('?start_time=2001-06-01T10:00:00Z&end_time=2001-06-01T09:00:00Z');
    expect(bad.statusCode).toBe(400);
    expect((await csv('?start_time=0001-01-01T00:00:00Z&end_time=0001-01-02T00:00:00Z')).statusCode).toBe(
      400,
    );
    expect(bad.json().detail).toContain('The range starts after it ends');
    expect((await csv('', moderator)).statusCode).toBe(200);
    expect((await csv('', user)).statusCode).toBe(403);
    expect((await t.app.inject({ url: '/api/v1/system/logs.csv' })).statusCode).toBe(401);
  });
});

describe('pruning', () => {
  it('deletes the lines older than SYSTEM_LOG_RETENTION_DAYS and keeps the rest', async () => {
    const days = (n: number) => n * 24 * 60;
    await insertSystemLogs(t.ctx.db, [
      row(days(15), 'INFO', 'server', 'prune: fifteen days old'),
      row(days(14) + 1, 'INFO', 'server', 'prune: just past fourteen days'),
      row(days(13), 'INFO', 'server', 'prune: thirteen days old'),
    ]);
    const before = await countSystemLogs(t.ctx.db);
    await pruneSystemLogsJob.handler(t.ctx, {});
    expect(await countSystemLogs(t.ctx.db)).toBe(before - 2);
    const range = `start_time=${at(days(20)).toISOString()}&end_time=${at(0).toISOString()}`;
    expect((await logs(`?${range}&search=prune:`)).body.logs.map((l) => l.message)).toEqual([
      'prune: thirteen days old',
    ]);
    // The hourly counts of the pruned hours went with their lines.
    expect((await logs(`?${range}`)).body.stats.total).toBe(7 + 150 + 3 + 1);
  });
});

describe('storing lines', () => {
  it('keeps every line as written: quotes, backslashes, any script and the millisecond', async () => {
    const when = new Date(NOW - 400 * 24 * 60 * MIN + 123);
    const lines: NewSystemLogRow[] = [
      {
        timestamp: when,
        level: 'WARNING',
        logger: 'server',
        message: `it's "quoted" \\ back\\slashed, São Paulo, 東京, 🚀, {"json": [1]}`,
      },
      { timestamp: when, level: 'INFO', logger: 'http.access', message: 'second line' },
    ];
    await insertSystemLogs(t.ctx.db, lines);
    const stored = await t.ctx.db
      .select()
      .from(systemLogs)
      .where(eq(systemLogs.timestamp, when))
      .orderBy(systemLogs.id);
    expect(stored.map(({ id: _id, ...line }) => line)).toEqual(lines);
  });

  it('stores a line with NUL in it, the NUL shown as U+FFFD, and the rest of its batch', async () => {
    const nul = toSystemLogRow({ level: 30, time: NOW - 401 * 24 * 60 * MIN, msg: 'a\0b' })!;
    const other = toSystemLogRow({ level: 30, time: NOW - 401 * 24 * 60 * MIN, msg: 'next line' })!;
    await insertSystemLogs(t.ctx.db, [nul, other]);
    const stored = await t.ctx.db
      .select({ message: systemLogs.message })
      .from(systemLogs)
      .where(eq(systemLogs.timestamp, nul.timestamp))
      .orderBy(systemLogs.id);
    expect(stored).toEqual([{ message: 'a\uFFFDb' }, { message: 'next line' }]);
  });
});
