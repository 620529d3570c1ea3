import { PassThrough } from 'node:stream';
import { gte } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemLogs } from '../features/system-logs/system-logs.table';
import { createTestApp, type TestApp } from '../test/test-app';
import { ACCESS_LOGGER_NAME, AccessLogController } from './access-log';

const lines: string[] = [];
let t: TestApp;

beforeAll(async () => {
  const stream = new PassThrough();
  let rest = '';
  stream.on('data', (chunk: Buffer) => {
    const parts = (rest + chunk.toString()).split('\n');
    rest = parts.pop()!;
    lines.push(...parts.map((l) => `${l}\n`));
  });
  t = await createTestApp({ listen: true, logger: { stream, level: 'info' } });
});
afterAll(() => t.close());

/** The next line written, once it arrives. */
async function nextLine(from: number): Promise<string> {
  await expect.poll(() => lines.length, { timeout: 5000, interval: 5 }).toBeGreaterThan(from);
  return lines[from]!;
}

const withoutTime = (line: string) => line.replace(/"time":\d+/, '"time":0');

describe('access line', () => {
  it('is written without pino in the app as it is configured', () => {
    expect(new AccessLogController(t.ctx.log).writesDirectly).toBe(true);
  });

  it.each([
    ['a plain path', '/api/v1/health'],
    ['credentials in the query', '/api/v1/auth/v3-login?v3=v3-secret-1&token=tok-2&access_token=at-3&x=1'],
    ['a JWT in the path', '/api/v1/x/eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl'],
    ['quotes, backslashes and other scripts', '/api/v1/nope/%22%5C?q="a\\b"&name=Zoë&emoji=😀'],
    ['a password pair', '/api/v1/nope?password=hunter2secret'],
  ])('equals the line pino writes for the same call, with %s', async (_, url) => {
    const from = lines.length;
    const res = await fetch(`${t.url}${url}`);
    await res.arrayBuffer();
    const written = await nextLine(from);
    const entry = JSON.parse(written) as Record<string, unknown>;
    expect(entry.name).toBe(ACCESS_LOGGER_NAME);

    // The same call through pino's generic path, on the same logger.
    const { reqId, method, statusCode, responseTime, remoteAddress, msg } = entry;
    const fields = { reqId, method, url: entry.url, statusCode, responseTime, remoteAddress };
    const reference = lines.length;
    t.ctx.log.child({ name: ACCESS_LOGGER_NAME }).info(fields, msg as string);
    const expected = await nextLine(reference);
    expect(withoutTime(written)).toBe(withoutTime(expected));
    expect(written).not.toMatch(/v3-secret-1|tok-2|at-3|hunter2secret|eyJzdWIiOiIxIn0/);
  });

  it('stores the same system_logs row as pino would', async () => {
    const since = new Date(Date.now() - 1000);
    const res = await fetch(`${t.url}/api/v1/auth/v3-login?v3=v3-secret-9`);
    await res.arrayBuffer();
    await t.ctx.systemLogs!.flush();
    const rows = await t.ctx.db.select().from(systemLogs).where(gte(systemLogs.timestamp, since));
    const direct = rows.find((r) => r.logger === ACCESS_LOGGER_NAME && r.message.includes('v3-login'))!;
    expect(direct).toBeDefined();
    expect(direct.message).not.toContain('v3-secret-9');

    const marker = new Date();
    const { timestamp: _, id: __, ...row } = direct;
    t.ctx.log.child({ name: ACCESS_LOGGER_NAME }).info({ url: 'x' }, direct.message);
    await t.ctx.systemLogs!.flush();
    const again = await t.ctx.db.select().from(systemLogs).where(gte(systemLogs.timestamp, marker));
    const { timestamp: ___, id: ____, ...expected } = again.find((r) => r.logger === ACCESS_LOGGER_NAME)!;
    expect(row).toEqual(expected);
  });
});
