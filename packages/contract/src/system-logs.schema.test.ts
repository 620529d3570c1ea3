import { describe, expect, it } from 'vitest';
import { LOGGER_FILTERS, LOGGER_NAMES, shownLoggerName, ZSystemLogsQuery } from './system-logs.schema';

const issues = (query: Record<string, string>) => {
  const result = ZSystemLogsQuery.safeParse(query);
  return result.success ? [] : result.error.issues.map((i) => i.message);
};

describe('system logs query', () => {
  it('defaults to a page of 100 and takes levels in any case', () => {
    expect(ZSystemLogsQuery.parse({ level: 'warning', logger_file: 'uvicorn.access' })).toEqual({
      level: 'WARNING',
      logger_file: 'uvicorn.access',
      limit: 100,
      offset: 0,
    });
  });

  it('refuses unknown levels, loggers and periods by name', () => {
    expect(issues({ level: 'loud' })).toEqual([
      "Unknown level 'LOUD': use one of DEBUG, INFO, WARNING, ERROR, CRITICAL",
    ]);
    expect(issues({ logger_file: 'nginx' })[0]).toMatch(/^Unknown logger 'nginx'/);
    expect(issues({ period: '2h' })[0]).toMatch(/^Unknown period '2h'/);
    expect(issues({ limit: '501' })).toHaveLength(1);
  });

  it('takes a custom range only whole, in order and at most 366 days long', () => {
    const start_time = '2030-01-01T00:00:00Z';
    expect(issues({ start_time, end_time: '2030-01-02T00:00:00+02:00' })).toEqual([]);
    expect(issues({ start_time })).toEqual(['A custom range needs both start_time and end_time']);
    expect(issues({ start_time, end_time: '2029-12-31T23:59:00Z' })).toEqual([
      'The range starts after it ends',
    ]);
    expect(issues({ start_time, end_time: '2031-01-03T00:00:00Z' })).toEqual([
      'The range is longer than 366 days',
    ]);
    expect(issues({ start_time: '01-01-2030 10:00', end_time: start_time })[0]).toMatch(/ISO 8601/);
    expect(issues({ start_time: '2030-02-31T00:00:00Z', end_time: '2030-03-31T00:00:00Z' })).toEqual([
      'start_time is not a real date and time',
    ]);
    expect(issues({ start_time: '1999-12-31T00:00:00Z', end_time: start_time })).toEqual([
      'start_time must be a date-time between 2000 and 2100',
    ]);
  });
});

describe('logger names as /logs shows them', () => {
  it('shows every stored logger under a name the Logger filter offers, the access lines as uvicorn.access', () => {
    expect(shownLoggerName('http.access')).toBe('uvicorn.access');
    expect(shownLoggerName('server')).toBe('server');
    for (const name of LOGGER_NAMES) {
      expect(LOGGER_FILTERS.filter((f) => f !== 'http.access')).toContain(shownLoggerName(name));
    }
    expect(shownLoggerName('constructor')).toBe('constructor');
  });
});
