import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server as ProxyServer } from 'proxy-chain';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProxyDispatcher } from './proxy-dispatcher';
import { checkProxyTemplate, maskProxyUrl, renderProxyUrl } from './proxy-template';
import { isPublicAddress, ProxyTargetRefusedError, resolvePublicTarget } from './ssrf-guard';

describe('proxy URL template', () => {
  const template =
    'http://user[[-country-{country}]][[-state-{state}]][[-city-{city}]]-session-{session}:pw@gate.example.com:7000';

  it('fills the location and drops segments whose placeholder is empty', () => {
    expect(renderProxyUrl(template, { country: 'US', state: 'NY', city: 'New York' }, 'a1')).toBe(
      'http://user-country-us-state-ny-city-new_york-session-a1:pw@gate.example.com:7000',
    );
    expect(renderProxyUrl(template, { country: 'de', state: null, city: null }, 'a2')).toBe(
      'http://user-country-de-session-a2:pw@gate.example.com:7000',
    );
  });

  it('cannot be steered to another host by a preference value', () => {
    const hostTemplate = 'http://{city}.proxy.example.com:8000';
    const rendered = renderProxyUrl(hostTemplate, { country: null, state: null, city: 'x@127.0.0.1#' }, 's');
    expect(rendered).toBe('http://x%40127.0.0.1%23.proxy.example.com:8000');
    expect(() => new URL(rendered)).toThrow();
  });

  it('rejects templates that are not http(s) proxy URLs', () => {
    expect(() => checkProxyTemplate('socks5://x:1')).toThrow(/http/);
    expect(() => checkProxyTemplate('not a url {country}')).toThrow(/URL/);
    expect(() => checkProxyTemplate(template)).not.toThrow();
  });

  it('masks the password', () => {
    expect(maskProxyUrl('http://user-us:hunter2@gate.example.com:7000')).toBe(
      'http://user-us:***@gate.example.com:7000',
    );
  });
});

describe('proxy target guard', () => {
  const resolve = async (host: string) => {
    const table: Record<string, string[]> = {
      'internal.example': ['10.0.0.5'],
      'mixed.example': ['93.184.216.34', '192.168.1.10'],
      'public.example': ['93.184.216.34'],
      'metadata.example': ['fd00:ec2::254'],
    };
    if (!table[host]) throw new Error('ENOTFOUND');
    return table[host];
  };
  const policy = { allowedHosts: [], resolve };

  it.each([
    ['127.0.0.1'],
    ['2130706433'],
    ['[::ffff:127.0.0.1]'],
    ['169.254.169.254'],
    ['[::1]'],
    ['10.1.2.3'],
    ['192.168.0.1'],
    ['172.16.5.4'],
    ['100.64.0.1'],
    ['0.0.0.0'],
    ['internal.example'],
    ['mixed.example'],
    ['metadata.example'],
    ['unknown.example'],
  ])('refuses %s', async (host) => {
    // Hosts are taken the way a URL parser reads them (2130706433 -> 127.0.0.1).
    const hostname = new URL(`http://${host}:8080`).hostname;
    await expect(resolvePublicTarget(hostname, policy)).rejects.toBeInstanceOf(ProxyTargetRefusedError);
  });

  it('lets public addresses and allow-listed hosts through', async () => {
    await expect(resolvePublicTarget('public.example', policy)).resolves.toBe('93.184.216.34');
    await expect(resolvePublicTarget('127.0.0.1', { ...policy, allowedHosts: ['127.0.0.1'] })).resolves.toBe(
      '127.0.0.1',
    );
    expect(isPublicAddress('8.8.8.8')).toBe(true);
    expect(isPublicAddress('2606:4700::1111')).toBe(true);
  });
});

describe('proxy dispatcher', () => {
  let target: Server;
  let targetUrl: string;
  let proxy: ProxyServer;
  let proxyPort: number;
  let proxied = 0;

  beforeAll(async () => {
    target = createServer((_req, res) => res.end('hello'));
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/`;
    proxy = new ProxyServer({
      port: 0,
      host: '127.0.0.1',
      prepareRequestFunction: ({ username, password }) => {
        proxied++;
        return { requestAuthentication: username !== 'u' || password !== 'p' };
      },
    });
    await proxy.listen();
    proxyPort = proxy.port;
  });
  afterAll(async () => {
    await proxy.close(true);
    await new Promise((r) => target.close(r));
  });

  it('sends traffic through an allow-listed local proxy', async () => {
    const dispatcher = createProxyDispatcher(`http://u:p@127.0.0.1:${proxyPort}`, {
      allowedHosts: ['127.0.0.1'],
    });
    const before = proxied;
    const res = await request(targetUrl, { dispatcher });
    expect(await res.body.text()).toBe('hello');
    expect(proxied).toBeGreaterThan(before);
    await dispatcher.close();
  });

  it.each([['127.0.0.1'], ['2130706433'], ['[::ffff:127.0.0.1]'], ['localhost']])(
    'refuses to dial a proxy at %s when it is not allow-listed',
    async (host) => {
      const dispatcher = createProxyDispatcher(`http://u:p@${host}:${proxyPort}`, { allowedHosts: [] });
      const before = proxied;
      await expect(request(targetUrl, { dispatcher })).rejects.toThrow(/not a public address|non-public/);
      expect(proxied).toBe(before);
      await dispatcher.close();
    },
  );
});
