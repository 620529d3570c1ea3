import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { Server as ProxyServer } from 'proxy-chain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, type TestUser } from '../../test/factories';
import type { TestApp } from '../../test/test-app';
import { createDiscoveryApp } from '../discovery/discovery.test-support';
import { checkAllProxies } from './credentials.service';

let proxy: ProxyServer;
const tunnels: string[] = [];

beforeAll(async () => {
  proxy = new ProxyServer({
    port: 0,
    host: '127.0.0.1',
    prepareRequestFunction: ({ username, password, hostname, port }) => {
      tunnels.push(`${username}@${hostname}:${port}`);
      return { requestAuthentication: password !== 'pw' };
    },
  });
  await proxy.listen();
});
afterAll(() => proxy.close(true));

/**
 * The health check reads every credential there is: on PostgreSQL the app has a database of its own, so
 * other suites' credentials are neither counted nor given a proxy.
 */
async function appWith(env: Record<string, string>) {
  const t = await createDiscoveryApp({ reddit: true, env });
  const admin = await buildUser(t.ctx.db, t.config, { roles: ['ADMIN'] });
  return { t, admin };
}

async function createCredential(t: TestApp, admin: TestUser, country: string | null = 'us') {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/reddit-credentials',
    headers: admin.auth,
    payload: {
      type: 'search',
      account_name: 'proxy_bot',
      client_id: `proxied-${randomUUID().slice(0, 8)}`,
      client_secret: 'sekret',
      proxy_preferences: { country },
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; client_id: string };
}

const get = async (t: TestApp, admin: TestUser, url: string) =>
  (await t.app.inject({ url, headers: admin.auth })).json();
const post = async (t: TestApp, admin: TestUser, url: string) =>
  (await t.app.inject({ method: 'POST', url, headers: admin.auth })).json();

describe('proxy pool with a provider template', () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    ({ t, admin } = await appWith({
      PROXY_URL_TEMPLATE: `http://tr[[-country-{country}]]-session-{session}:pw@127.0.0.1:${proxy.port}`,
      PROXY_ALLOWED_HOSTS: '127.0.0.1',
      PROXY_MAX_FAILURES: '2',
    }));
  });
  afterAll(() => t.close());

  it("sends a credential's traffic through its own proxy and shows it masked", async () => {
    const credential = await createCredential(t, admin);
    const before = tunnels.length;
    const test = await post(t, admin, `/api/v1/reddit-credentials/${credential.id}/test`);
    expect(test).toMatchObject({ can_connect: true, error: null });
    expect(tunnels.slice(before).every((u) => u.startsWith('tr-country-us-session-'))).toBe(true);
    expect(tunnels.length).toBeGreaterThan(before);

    const detailed = await get(t, admin, `/api/v1/reddit-credentials/${credential.id}/detailed`);
    expect(detailed.proxy_masked).toMatch(
      /^http:\/\/tr-country-us-session-[0-9a-f]+:\*\*\*@127\.0\.0\.1:\d+$/,
    );
    expect(detailed.efficiency_stats).toMatchObject({
      total_proxy_requests: 2,
      proxy_health_status: 'healthy',
      proxy_replacement_count: 0,
      last_proxy_error: null,
    });
    const details = await get(t, admin, '/api/v1/proxy-pool/details?limit=500');
    const mine = details.items.find((d: { credential_id: string }) => d.credential_id === credential.id);
    expect(mine).toMatchObject({ health_status: 'healthy', success_count: 2, failure_count: 0 });
    expect(JSON.stringify(details)).not.toContain(':pw@');
  });

  it('replaces a proxy on request: new session, counted in the pool figures', async () => {
    const credential = await createCredential(t, admin, null);
    const first = await get(t, admin, `/api/v1/reddit-credentials/${credential.id}/detailed`);
    expect(first.proxy_masked).toMatch(/^http:\/\/tr-session-/);
    const replaced = await post(t, admin, `/api/v1/reddit-credentials/${credential.id}/replace-proxy`);
    expect(replaced.proxy_masked).not.toBe(first.proxy_masked);
    expect(replaced.efficiency_stats.proxy_replacement_count).toBe(1);
    const stats = await get(t, admin, '/api/v1/proxy-pool/stats');
    expect(stats.total_replacements_24h).toBeGreaterThanOrEqual(1);
    expect(stats.last_replacement_time).not.toBeNull();
    expect(stats.total_proxies).toBeGreaterThanOrEqual(2);
    expect(stats.avg_failure_rate).toBeGreaterThanOrEqual(0);
  });

  it('checks every proxy on schedule, through the Reddit client like any request', async () => {
    const credential = await createCredential(t, admin);
    const before = tunnels.length;
    const result = await checkAllProxies(t.ctx);
    expect(result.checked).toBeGreaterThanOrEqual(1);
    expect(tunnels.length).toBeGreaterThan(before);
    const detailed = await get(t, admin, `/api/v1/reddit-credentials/${credential.id}/detailed`);
    expect(detailed.efficiency_stats.last_health_check).not.toBeNull();
    expect(detailed.efficiency_stats.proxy_health_status).toBe('healthy');
    // Counted in the credential's request statistics, through its proxy.
    expect(detailed.efficiency_stats).toMatchObject({ total_requests: 1, total_proxy_requests: 1 });
  });

  it('gives credentials from before the template their own proxy at the next health check', async () => {
    const older = await createCredential(t, admin);
    const disabled = await createCredential(t, admin);
    await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/reddit-credentials/${disabled.id}/enable?enabled=false`,
      headers: admin.auth,
    });
    // As credentials created while no PROXY_URL_TEMPLATE was set: no proxy, so they connect directly.
    for (const { id } of [older, disabled]) {
      await t.ctx.db.execute(sql`delete from credential_proxies where credential_id = ${id}`);
    }
    const before = await get(t, admin, `/api/v1/reddit-credentials/${older.id}/detailed`);
    expect(before.proxy_masked).toBeNull();

    const tunnelsBefore = tunnels.length;
    const result = await checkAllProxies(t.ctx);
    expect(result.assigned).toBe(1);
    const after = await get(t, admin, `/api/v1/reddit-credentials/${older.id}/detailed`);
    expect(after.proxy_masked).toMatch(/^http:\/\/tr-country-us-session-[0-9a-f]+:\*\*\*@127\.0\.0\.1:\d+$/);
    // Checked through it at once.
    expect(after.efficiency_stats).toMatchObject({ proxy_health_status: 'healthy', total_proxy_requests: 1 });
    expect(tunnels.length).toBeGreaterThan(tunnelsBefore);
    // A disabled credential sends nothing, so it gets none until it is enabled again.
    const off = await get(t, admin, `/api/v1/reddit-credentials/${disabled.id}/detailed`);
    expect(off.proxy_masked).toBeNull();

    // Once given, it keeps its proxy: the next round assigns nothing new to it.
    expect((await checkAllProxies(t.ctx)).assigned).toBe(0);
    const later = await get(t, admin, `/api/v1/reddit-credentials/${older.id}/detailed`);
    expect(later.proxy_masked).toBe(after.proxy_masked);
  });

  it('tells the web that Replace Proxy has a provider to replace from', async () => {
    const credential = await createCredential(t, admin);
    const detailed = await get(t, admin, `/api/v1/reddit-credentials/${credential.id}/detailed`);
    expect(detailed.proxy_provider_configured).toBe(true);
  });
});

describe('proxy pool safety', () => {
  it('refuses a proxy on a private address and replaces it after repeated failures', async () => {
    const { t, admin } = await appWith({
      PROXY_URL_TEMPLATE: `http://evil-{session}:pw@127.0.0.1:${proxy.port}`,
      PROXY_MAX_FAILURES: '2',
    });
    try {
      const credential = await createCredential(t, admin);
      const before = tunnels.length;
      // A connection test makes one attempt and answers with its failure; two in a row replace the proxy.
      for (let i = 0; i < 2; i++) {
        const test = await post(t, admin, `/api/v1/reddit-credentials/${credential.id}/test`);
        expect(test.can_connect).toBe(false);
        expect(test.error).toMatch(/not a public address/);
      }
      expect(tunnels.length).toBe(before); // nothing ever reached the proxy

      const detailed = await get(t, admin, `/api/v1/reddit-credentials/${credential.id}/detailed`);
      expect(detailed.efficiency_stats.proxy_replacement_count).toBeGreaterThanOrEqual(1);
      expect(detailed.efficiency_stats.total_requests).toBeGreaterThan(0);
      const stats = await get(t, admin, '/api/v1/proxy-pool/stats');
      expect(stats.total_replacements_24h).toBeGreaterThanOrEqual(1);
    } finally {
      await t.close();
    }
  });

  it('says so when no proxy provider is configured', async () => {
    const { t, admin } = await appWith({});
    try {
      const credential = await createCredential(t, admin);
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/v1/reddit-credentials/${credential.id}/replace-proxy`,
        headers: admin.auth,
      });
      expect(res.statusCode).toBe(409);
      expect(res.json().code).toBe('no_proxy_provider');
      // The web learns it beforehand, to disable Replace Proxy.
      const detailed = await get(t, admin, `/api/v1/reddit-credentials/${credential.id}/detailed`);
      expect(detailed).toMatchObject({ proxy_provider_configured: false, proxy_masked: null });
      // Nor does the health check give any credential a proxy.
      expect(await checkAllProxies(t.ctx)).toMatchObject({ assigned: 0, checked: 0 });
      const details = await get(t, admin, '/api/v1/proxy-pool/details?limit=500');
      expect(details.items.map((d: { credential_id: string }) => d.credential_id)).not.toContain(
        credential.id,
      );
    } finally {
      await t.close();
    }
  });
});
