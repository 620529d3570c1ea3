import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

const dataDir = () => mkdtempSync(path.join(tmpdir(), 'threadreach-config-'));
const key = (byte: number) => Buffer.alloc(32, byte).toString('base64');

describe('Reddit, proxy and secret-key settings', () => {
  it('runs the simulator and a generated local key by default, and keeps that key across starts', () => {
    const dir = dataDir();
    const first = loadConfig({ DATA_DIR: dir });
    expect(first.reddit).toEqual({ kind: 'sim', seed: 42, appId: 'threadreach', port: 0 });
    expect(loadConfig({ DATA_DIR: dir, REDDIT_SIM_PORT: '3101' }).reddit).toMatchObject({ port: 3101 });
    expect(first.proxy).toEqual({ urlTemplate: null, allowedHosts: [], maxFailures: 3 });
    expect(first.secretKeys).toHaveLength(1);
    expect(loadConfig({ DATA_DIR: dir }).secretKeys[0]!.key.equals(first.secretKeys[0]!.key)).toBe(true);
  });

  it('talks to the configured Reddit hosts and proxy provider', () => {
    const config = loadConfig({
      DATA_DIR: dataDir(),
      REDDIT_API_URL: 'http://127.0.0.1:4100/',
      SECRETS_KEYS: `v2:${key(2)},v1:${key(1)}`,
      PROXY_URL_TEMPLATE: 'http://user[[-country-{country}]]-session-{session}:pw@gate.example.com:7000',
      PROXY_ALLOWED_HOSTS: ' 127.0.0.1 , Proxy.Local',
    });
    expect(config.reddit).toEqual({
      kind: 'live',
      apiUrl: 'http://127.0.0.1:4100',
      authUrl: 'http://127.0.0.1:4100',
      appId: 'threadreach',
    });
    expect(config.secretKeys.map((k) => k.id)).toEqual(['v2', 'v1']);
    expect(config.proxy.allowedHosts).toEqual(['127.0.0.1', 'proxy.local']);
  });

  it.each([
    [{ SECRETS_KEYS: 'v1:c2hvcnQ=' }, "SECRETS_KEYS: key 'v1' must decode to 32 bytes"],
    [{ SECRETS_KEYS: 'nocolon' }, 'SECRETS_KEYS: each key must be written as <id>:<base64 key>'],
    [
      { PROXY_URL_TEMPLATE: 'socks5://{country}.example.com:1080' },
      'PROXY_URL_TEMPLATE: only http:// and https://',
    ],
    [{ REDDIT_AUTH_URL: 'https://www.reddit.com' }, 'REDDIT_API_URL: required when REDDIT_AUTH_URL is set'],
    [{ REDDIT_APP_ID: 'bad id' }, 'REDDIT_APP_ID'],
  ])('stops on %j', (env, message) => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), ...env })).toThrow(message);
  });

  it('requires SECRETS_KEYS in production', () => {
    expect(() =>
      loadConfig({
        NODE_ENV: 'production',
        OIDC_ISSUER: 'https://id.example.com',
        OIDC_CLIENT_ID: 'c',
        OIDC_CLIENT_SECRET: 's',
        JWT_SECRET: 'x'.repeat(40),
        DATABASE_URL: 'postgres://db/x',
      }),
    ).toThrow('SECRETS_KEYS: required when NODE_ENV=production');
  });
});
