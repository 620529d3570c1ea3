import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../../security/secrets';
import { createTestApp, type TestApp } from '../../test/test-app';
import { seedDemoCredentials } from './credentials.seed';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ reddit: true });
});
afterAll(() => t.close());

describe('demo credentials', () => {
  it('seeds one search and one send credential once, and keeps their secrets', async () => {
    const first = await seedDemoCredentials(t.ctx);
    const again = await seedDemoCredentials(t.ctx);
    expect(first.map((c) => c.type)).toEqual(['search', 'send']);
    expect(again).toEqual(first);
    const rows = await t.ctx.db.execute(
      sql`select id from reddit_credentials where client_id in ('threadreach-demo-search', 'threadreach-demo-send')`,
    );
    expect(rows.rows).toHaveLength(2);
  });

  it('gives a demo credential a new secret when its key is gone', async () => {
    const before = await seedDemoCredentials(t.ctx);
    const otherKey = { ...t.ctx, secrets: new SecretBox([{ id: 'new', key: randomBytes(32) }]) };
    const after = await seedDemoCredentials(otherKey);
    expect(after.map((c) => c.clientId)).toEqual(before.map((c) => c.clientId));
    expect(after[0]!.clientSecret).not.toBe(before[0]!.clientSecret);
    expect(await seedDemoCredentials(otherKey)).toEqual(after);
  });
});
