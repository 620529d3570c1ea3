import { afterEach, describe, expect, it } from 'vitest';
import { ZPublicConfig } from '@threadreach/contract';
import { createTestApp, type TestApp } from '../../test/test-app';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function publicConfig(app: TestApp) {
  const res = await app.app.inject({ url: '/api/v1/public-config' });
  expect(res.statusCode).toBe(200);
  return ZPublicConfig.parse(res.json());
}

describe('GET /public-config', () => {
  it("points Reddit links at the simulator's pages when Reddit is simulated", async () => {
    t = await createTestApp({ reddit: true });
    expect((await publicConfig(t)).reddit_web_url).toBe(t.sim!.url);
  });

  it('points Reddit links at www.reddit.com otherwise', async () => {
    t = await createTestApp();
    expect((await publicConfig(t)).reddit_web_url).toBe('https://www.reddit.com');
  });

  it('says after how many days DMs expire with their post or comment (DM_EXPIRY_DAYS)', async () => {
    t = await createTestApp({ env: { DM_EXPIRY_DAYS: '10' } });
    expect((await publicConfig(t)).dm_expiry_days).toBe(10);
  });
});
