import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse } from 'msw';
import {
  LOG_LEVELS,
  systemLogsEndpoints,
  type TLogEntry,
  type TSystemLogsResponse,
} from '@threadreach/contract';
import {
  errorReply,
  mockEndpoint,
  sentRequests,
  type TMockHandler,
} from '../../../test/api-mock.test-support';
import { mockPublicConfig } from '../../../test/public-config.test-support';
import { renderApp } from '../../../test/render-app';
import { makeToken } from '../../../test/tokens';
import { setToken } from '../../../lib/token-storage';
import { ACCESS_DENIED_TEXT } from '../../auth';

function entry(i: number, overrides: Partial<TLogEntry> = {}): TLogEntry {
  return {
    id: String(i),
    timestamp: new Date(Date.UTC(2030, 0, 31, 9, 30, 0) - i * 1000).toISOString(),
    level: 'INFO',
    logger_name: 'server',
    message: `line ${i}`,
    ...overrides,
  };
}

/** Where the mocked server's window ends. */
const AS_OF = '2030-01-31T09:30:05.000Z';

function answer(logs: TLogEntry[], total = logs.length, limit = 100, offset = 0): TSystemLogsResponse {
  const stats = { total, DEBUG: 0, INFO: 0, WARNING: 0, ERROR: 0, CRITICAL: 0 };
  for (const l of logs) stats[l.level]++;
  return { logs, stats, total, limit, offset, counts_capped: false, as_of: AS_OF };
}

/** Answers pages out of `rows`, as the server would. */
function pagesOf(rows: TLogEntry[]): TMockHandler<typeof systemLogsEndpoints.list> {
  return ({ query }) =>
    answer(rows.slice(query.offset, query.offset + query.limit), rows.length, query.limit, query.offset);
}

/** Pastes into a labelled field: typing key by key is slow in jsdom and tests nothing more here. */
async function typeInto(user: ReturnType<typeof userEvent.setup>, label: string, text: string) {
  await user.click(screen.getByLabelText(label));
  await user.paste(text);
}

/** The message shown by a field, as its description, or null; and whether it is marked invalid. */
function fieldError(label: string): { message: string | null; invalid: boolean } {
  const input = screen.getByLabelText(label);
  const ids = input.getAttribute('aria-describedby')?.split(' ') ?? [];
  const text = ids.map((id) => document.getElementById(id)?.textContent ?? '').join('');
  return { message: text || null, invalid: input.getAttribute('aria-invalid') === 'true' };
}

const signIn = (roles: string[]) => setToken(makeToken({ roles, profiles_limit: 0 }));
/** The page's chunk loads lazily: the first render of a file can take a while on a busy machine. */
const LOAD = { timeout: 5000 };
const table = () => screen.findByRole('table', { name: 'System logs' }, LOAD);

beforeEach(() => {
  mockPublicConfig();
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** /logs of an admin answering one line, with Period set to Custom range. */
async function customRangeShown() {
  signIn(['ADMIN']);
  const list = mockEndpoint(systemLogsEndpoints.list, answer([entry(1)]));
  const user = userEvent.setup();
  renderApp('/logs');
  await table();
  await user.selectOptions(screen.getByLabelText('Period'), 'Custom range');
  return { list, user };
}

describe('/logs', () => {
  it('shows Access Denied to a USER and asks for no logs', async () => {
    setToken(makeToken({ roles: ['USER'] }));
    renderApp('/logs');
    expect(await screen.findByText(ACCESS_DENIED_TEXT, {}, LOAD)).toBeTruthy();
    const path = systemLogsEndpoints.list.path;
    expect(sentRequests().filter((r) => r.url.pathname === path)).toHaveLength(0);
  });

  it('shows the last hour: stats bar, level badges, logger and message', async () => {
    signIn(['ADMIN']);
    const list = mockEndpoint(
      systemLogsEndpoints.list,
      answer([
        entry(1, { level: 'ERROR', message: 'request failed: boom' }),
        entry(2, { logger_name: 'uvicorn.access', message: 'GET /api/v1/projects 200 3ms' }),
      ]),
    );
    renderApp('/logs');
    const rows = within(await table()).getAllByRole('row');
    expect(
      within(rows[0]!)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Time', 'Level', 'Logger', 'Message']);
    expect(within(rows[1]!).getByText('ERROR')).toBeTruthy();
    expect(within(rows[1]!).getByText('request failed: boom')).toBeTruthy();
    expect(within(rows[2]!).getByText('uvicorn.access')).toBeTruthy();
    const stats = screen.getByLabelText('Log statistics');
    expect(within(stats).getByText('Total: 2')).toBeTruthy();
    expect(within(stats).getByText('ERROR: 1')).toBeTruthy();
    expect(within(stats).getByText('INFO: 1')).toBeTruthy();
    expect(list.calls[0]!.query).toEqual({ period: '1h', limit: 100, offset: 0 });
  });

  it('offers the spec choices for level, logger and period', async () => {
    signIn(['MODERATOR']);
    mockEndpoint(systemLogsEndpoints.list, answer([]));
    renderApp('/logs');
    const options = (label: string) =>
      within(screen.getByLabelText(label))
        .getAllByRole('option')
        .map((o) => o.textContent);
    await screen.findByText('No logs found for the selected criteria.', {}, LOAD);
    expect(options('Level')).toEqual(['All', 'Info', 'Warning', 'Error', 'Debug', 'Critical']);
    expect(options('Logger')).toEqual(['All', 'server', 'uvicorn.access', 'ai-service']);
    expect(options('Period')).toEqual(['Last 10 minutes', 'Last 30 minutes', 'Last 1 hour', 'Custom range']);
    expect(screen.getByLabelText('Auto-refresh (5s)')).toBeTruthy();
  });

  it(
    'applies level, logger, period and search together; Enter in the search applies',
    { timeout: 15_000 },
    async () => {
      signIn(['ADMIN']);
      const list = mockEndpoint(systemLogsEndpoints.list, answer([entry(1)]));
      const user = userEvent.setup();
      renderApp('/logs');
      await table();
      await user.selectOptions(screen.getByLabelText('Level'), 'Error');
      await user.selectOptions(screen.getByLabelText('Logger'), 'uvicorn.access');
      await user.selectOptions(screen.getByLabelText('Period'), 'Last 10 minutes');
      // Nothing is asked before the filters are applied.
      expect(list.calls).toHaveLength(1);
      await user.type(screen.getByLabelText('Search'), 'timeout{Enter}');
      await waitFor(() => expect(list.calls).toHaveLength(2));
      expect(list.calls[1]!.query).toEqual({
        level: 'ERROR',
        logger_file: 'uvicorn.access',
        period: '10m',
        search: 'timeout',
        limit: 100,
        offset: 0,
      });
    },
  );

  // Renders two pages of 100 rows.
  it(
    'pages by 100: Next only after a full page, Apply Filters goes back to the first page',
    { timeout: 20_000 },
    async () => {
      signIn(['ADMIN']);
      const rows = Array.from({ length: 105 }, (_, i) => entry(i));
      const list = mockEndpoint(systemLogsEndpoints.list, pagesOf(rows));
      const user = userEvent.setup();
      renderApp('/logs');
      expect(within(await table()).getAllByRole('row')).toHaveLength(101);
      const next = screen.getByRole('button', { name: 'Next' }) as HTMLButtonElement;
      const previous = screen.getByRole('button', { name: 'Previous' }) as HTMLButtonElement;
      expect(previous.disabled).toBe(true);
      expect(next.disabled).toBe(false);
      expect(list.calls.at(-1)!.query.as_of).toBeUndefined();
      await user.click(next);
      expect(await screen.findByText('line 104')).toBeTruthy();
      // The next page keeps to the first page's window: lines logged meanwhile do not shift it.
      expect(list.calls.at(-1)!.query).toMatchObject({ offset: 100, as_of: AS_OF });
      expect(next.disabled).toBe(true);
      expect(previous.disabled).toBe(false);
      await user.click(previous);
      await waitFor(() => expect(list.calls.at(-1)!.query).toMatchObject({ offset: 0, as_of: AS_OF }));
      // Refresh shows the newest lines as of now.
      await user.click(screen.getByRole('button', { name: 'Refresh' }));
      await waitFor(() => expect(list.calls.at(-1)!.query.as_of).toBeUndefined());
      await user.click(next);
      expect(await screen.findByText('line 104')).toBeTruthy();
      await user.click(screen.getByRole('button', { name: 'Apply Filters' }));
      expect(await screen.findByText('line 0')).toBeTruthy();
      expect(list.calls.at(-1)!.query.offset).toBe(0);
      expect(list.calls.at(-1)!.query.as_of).toBeUndefined();
    },
  );

  it(
    'sends a custom range as ISO start_time and end_time, and applies none until both ends are typed',
    { timeout: 15_000 },
    async () => {
      const { list, user } = await customRangeShown();
      const apply = screen.getByRole('button', { name: 'Apply Filters' });
      // Neither end: both are marked, the message by the first.
      await user.click(apply);
      expect(fieldError('From')).toEqual({ message: 'Enter both From and To', invalid: true });
      expect(fieldError('To')).toEqual({ message: null, invalid: true });
      // One end: the empty one says so, and the last hour is not shown under "Custom range".
      await typeInto(user, 'From', '31-01-2030 09:30');
      await user.click(apply);
      expect(fieldError('From')).toEqual({ message: null, invalid: false });
      expect(fieldError('To')).toEqual({ message: 'Enter both From and To', invalid: true });
      expect(list.calls).toHaveLength(1);

      await typeInto(user, 'To', '01-02-2030 10:00');
      await user.click(apply);
      await waitFor(() => expect(list.calls).toHaveLength(2));
      expect(fieldError('To')).toEqual({ message: null, invalid: false });
      expect(list.calls[1]!.query).toEqual({
        start_time: new Date(2030, 0, 31, 9, 30).toISOString(),
        end_time: new Date(2030, 1, 1, 10, 0).toISOString(),
        limit: 100,
        offset: 0,
      });
    },
  );

  it(
    'refuses a range not typed as dd-mm-yyyy hh:mm without asking the server',
    { timeout: 15_000 },
    async () => {
      const { list, user } = await customRangeShown();
      await typeInto(user, 'From', '2030-01-31 09:30');
      await typeInto(user, 'To', '31-02-2030 10:00');
      await user.click(screen.getByRole('button', { name: 'Apply Filters' }));
      // Both ends are wrong (the second is no day of the calendar): both are named.
      expect((await screen.findByText(/must be dates? and times? as/)).textContent).toBe(
        'From and To must be dates and times as dd-mm-yyyy hh:mm',
      );
      expect(fieldError('From').message).toBe('From and To must be dates and times as dd-mm-yyyy hh:mm');
      expect(fieldError('To').invalid).toBe(true);
      expect(list.calls).toHaveLength(1);
    },
  );

  it(
    'refuses a range that starts after it ends, or is too long, as the server would, without asking it',
    { timeout: 15_000 },
    async () => {
      const { list, user } = await customRangeShown();
      await typeInto(user, 'From', '01-02-2030 10:00');
      await typeInto(user, 'To', '31-01-2030 09:30');
      await user.click(screen.getByRole('button', { name: 'Apply Filters' }));
      expect(fieldError('From')).toEqual({ message: 'The range starts after it ends', invalid: true });
      expect(fieldError('To').invalid).toBe(false);
      // The lines and counts shown stay, with no error about them.
      expect(screen.getByLabelText('Log statistics')).toBeTruthy();
      expect(screen.queryByText(/^Failed to fetch logs/)).toBeNull();

      await user.clear(screen.getByLabelText('From'));
      await typeInto(user, 'From', '29-01-2029 09:30');
      await user.click(screen.getByRole('button', { name: 'Apply Filters' }));
      expect(fieldError('To')).toEqual({ message: 'The range is longer than 366 days', invalid: true });
      expect(list.calls).toHaveLength(1);
    },
  );

  it(
    "says 'Failed to fetch logs: {message}' with the server's detail, until a range refused here says its own",
    { timeout: 15_000 },
    async () => {
      signIn(['ADMIN']);
      mockEndpoint(
        systemLogsEndpoints.list,
        errorReply(400, 'end_time: The range starts after it ends', 'validation_error'),
      );
      const user = userEvent.setup();
      renderApp('/logs');
      expect((await screen.findByRole('alert', {}, LOAD)).textContent).toBe(
        'Failed to fetch logs: end_time: The range starts after it ends',
      );
      await user.selectOptions(screen.getByLabelText('Period'), 'Custom range');
      await typeInto(user, 'From', '2030-01-31 09:30');
      await user.click(screen.getByRole('button', { name: 'Apply Filters' }));
      expect(await screen.findByText('From must be a date and time as dd-mm-yyyy hh:mm')).toBeTruthy();
      expect(screen.queryByText(/^Failed to fetch logs/)).toBeNull();
    },
  );

  it('exports every line the applied filters match, not only the page, and saves it as a file', async () => {
    signIn(['ADMIN']);
    mockEndpoint(systemLogsEndpoints.list, pagesOf(Array.from({ length: 150 }, (_, i) => entry(i))));
    const csv = 'Timestamp,Level,Logger,Message\r\n2030-01-31T09:30:00.000Z,ERROR,server,line 0\r\n';
    const file = mockEndpoint(
      systemLogsEndpoints.exportCsv,
      () => new HttpResponse(csv, { headers: { 'Content-Type': 'text/csv' } }),
    );
    let blob: Blob | null = null;
    vi.spyOn(URL, 'createObjectURL').mockImplementation((b) => {
      blob = b as Blob;
      return 'blob:logs';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    const downloads: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      downloads.push(this.download);
    });
    const user = userEvent.setup();
    renderApp('/logs');
    await table();
    await user.selectOptions(screen.getByLabelText('Level'), 'ERROR');
    await user.type(screen.getByLabelText('Search'), 'timeout');
    await user.click(screen.getByRole('button', { name: 'Apply Filters' }));
    const exportButton = screen.getByRole('button', { name: 'Export CSV' }) as HTMLButtonElement;
    await waitFor(() => expect(exportButton.disabled).toBe(false));
    await user.click(exportButton);
    await waitFor(() => expect(downloads).toHaveLength(1));
    // The filters as applied, in the window of the answer shown, without a page.
    expect(file.calls[0]!.query).toEqual({ level: 'ERROR', search: 'timeout', period: '1h', as_of: AS_OF });
    expect(downloads[0]).toMatch(/^system-logs-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.csv$/);
    expect(await blob!.text()).toBe(csv);
  });

  it(
    'exports the window of the answer on screen, from the first page on, and waits for the filters applied',
    { timeout: 15_000 },
    async () => {
      signIn(['ADMIN']);
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      const list = mockEndpoint(systemLogsEndpoints.list, async ({ query }) => {
        if (query.logger_file) await held;
        return answer([entry(1)]);
      });
      const file = mockEndpoint(
        systemLogsEndpoints.exportCsv,
        () =>
          new HttpResponse('Timestamp,Level,Logger,Message\r\n', { headers: { 'Content-Type': 'text/csv' } }),
      );
      vi.spyOn(URL, 'createObjectURL').mockImplementation(() => 'blob:logs');
      vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
      vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
      const user = userEvent.setup();
      renderApp('/logs');
      await table();
      await user.selectOptions(screen.getByLabelText('Logger'), 'server');
      await user.selectOptions(screen.getByLabelText('Period'), 'Last 10 minutes');
      await user.click(screen.getByRole('button', { name: 'Apply Filters' }));
      await waitFor(() => expect(list.calls).toHaveLength(2));
      // The rows still shown are the last filters': they are not what the file would hold.
      const exportButton = screen.getByRole('button', { name: 'Export CSV' }) as HTMLButtonElement;
      expect(exportButton.disabled).toBe(true);
      release();
      await waitFor(() => expect(exportButton.disabled).toBe(false));
      // The file holds the ten minutes shown, not the ten minutes before the click.
      await user.click(exportButton);
      await waitFor(() => expect(file.calls).toHaveLength(1));
      expect(file.calls[0]!.query).toEqual({ logger_file: 'server', period: '10m', as_of: AS_OF });
    },
  );

  it('says how much of an export has arrived while it streams in, and saves it whole', async () => {
    signIn(['ADMIN']);
    mockEndpoint(systemLogsEndpoints.list, answer([entry(1)]));
    const head = 'Timestamp,Level,Logger,Message\r\n';
    const line = '2030-01-31T09:30:00.000Z,INFO,server,' + 'x'.repeat(1000) + '\r\n';
    const first = head + line.repeat(1600);
    let finish = () => {};
    const rest = new Promise<void>((resolve) => (finish = resolve));
    mockEndpoint(systemLogsEndpoints.exportCsv, () => {
      const body = new ReadableStream<Uint8Array>({
        async start(controller) {
          const encode = (text: string) => new TextEncoder().encode(text);
          controller.enqueue(encode(first));
          await rest;
          controller.enqueue(encode(line));
          controller.close();
        },
      });
      return new HttpResponse(body, { headers: { 'Content-Type': 'text/csv' } });
    });
    let blob: Blob | null = null;
    vi.spyOn(URL, 'createObjectURL').mockImplementation((b) => {
      blob = b as Blob;
      return 'blob:logs';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const user = userEvent.setup();
    renderApp('/logs');
    await table();
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    // 1.6 MB, then nothing more until the rest is let through.
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Exporting… 1.6 MB received'));
    finish();
    await waitFor(() => expect(blob).not.toBeNull());
    expect(await blob!.text()).toBe(first + line);
    await waitFor(() => expect(screen.queryByText(/^Exporting…/)).toBeNull());
  });

  it('says when the export fails', async () => {
    signIn(['ADMIN']);
    mockEndpoint(systemLogsEndpoints.list, answer([entry(1)]));
    mockEndpoint(systemLogsEndpoints.exportCsv, errorReply(500, 'database down', 'internal'));
    const user = userEvent.setup();
    renderApp('/logs');
    await table();
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByText('Failed to export logs: database down')).toBeTruthy();
  });

  it('refreshes every 15 s while auto-refresh (labelled 5s) is on', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    signIn(['ADMIN']);
    const list = mockEndpoint(systemLogsEndpoints.list, answer([entry(1)]));
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderApp('/logs');
    await table();
    expect(list.calls).toHaveLength(1);
    await user.click(screen.getByLabelText('Auto-refresh (5s)'));
    await act(() => vi.advanceTimersByTimeAsync(5_000));
    expect(list.calls).toHaveLength(1);
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    await waitFor(() => expect(list.calls).toHaveLength(2));
    await user.click(screen.getByLabelText('Auto-refresh (5s)'));
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    expect(list.calls).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(list.calls).toHaveLength(3));
  });

  it(
    'shows a search that stopped counting at 1000 as 1000+ and still pages on',
    { timeout: 30_000 },
    async () => {
      signIn(['ADMIN']);
      const rows = Array.from({ length: 100 }, (_, i) => entry(i, { level: i % 2 ? 'INFO' : 'ERROR' }));
      const capped: TSystemLogsResponse = {
        ...answer(rows, 1000),
        stats: { total: 1000, DEBUG: 0, INFO: 600, WARNING: 0, ERROR: 400, CRITICAL: 0 },
        counts_capped: true,
      };
      const list = mockEndpoint(systemLogsEndpoints.list, ({ query }) => ({
        ...capped,
        offset: query.offset,
      }));
      const user = userEvent.setup();
      renderApp('/logs');
      await table();
      const stats = screen.getByLabelText('Log statistics');
      expect(within(stats).getByText('Total: 1000+')).toBeTruthy();
      expect(within(stats).getByText('INFO: 600+')).toBeTruthy();
      expect(within(stats).getByText('ERROR: 400+')).toBeTruthy();
      expect(screen.getByText('Showing 1-100 of 1000+')).toBeTruthy();
      expect(screen.getByText(/counting stopped there/)).toBeTruthy();
      // Past the lines counted, Next still goes on while pages come back full.
      for (let page = 1; page <= 10; page++) {
        await user.click(screen.getByRole('button', { name: 'Next' }));
        const shown = `Showing ${page * 100 + 1}-${page * 100 + 100} of ${Math.max(1000, page * 100 + 100)}+`;
        expect(await screen.findByText(shown)).toBeTruthy();
        expect(list.calls.at(-1)!.query.offset).toBe(page * 100);
      }
      expect((screen.getByRole('button', { name: 'Next' }) as HTMLButtonElement).disabled).toBe(false);
    },
  );

  it("under a level filter, Total is that filter's and the counts per level stay every level's", async () => {
    signIn(['ADMIN']);
    // As the server answers: no WARNING line, 12 at other levels (decision 020).
    const stats = { total: 12, DEBUG: 2, INFO: 9, WARNING: 0, ERROR: 1, CRITICAL: 0 };
    const all = { ...answer([entry(1)], 12), stats };
    mockEndpoint(systemLogsEndpoints.list, ({ query }) =>
      query.level === 'WARNING' ? { ...answer([], 0), stats } : all,
    );
    const user = userEvent.setup();
    renderApp('/logs');
    await table();
    const bar = () => screen.getByLabelText('Log statistics');
    expect(within(bar()).getByText('Total: 12')).toBeTruthy();
    expect(within(bar()).queryByText(/All levels/)).toBeNull();

    await user.selectOptions(screen.getByLabelText('Level'), 'Warning');
    await user.click(screen.getByRole('button', { name: 'Apply Filters' }));
    expect(await screen.findByText('No logs found for the selected criteria.')).toBeTruthy();
    expect(within(bar()).getByText('Total: 0')).toBeTruthy();
    expect(within(bar()).getByText('All levels: 12')).toBeTruthy();
    expect(within(bar()).getByText('INFO: 9')).toBeTruthy();
    expect(within(bar()).getByText('WARNING: 0')).toBeTruthy();
    expect(
      within(bar()).getByText('Total counts the WARNING lines only; the counts per level cover every level.'),
    ).toBeTruthy();
  });

  it('counts every level in the stats bar', async () => {
    signIn(['ADMIN']);
    mockEndpoint(systemLogsEndpoints.list, answer(LOG_LEVELS.map((level, i) => entry(i, { level }))));
    renderApp('/logs');
    await table();
    const stats = screen.getByLabelText('Log statistics');
    for (const level of LOG_LEVELS) expect(within(stats).getByText(`${level}: 1`)).toBeTruthy();
  });
});
