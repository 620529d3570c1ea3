import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

const dataDir = () => mkdtempSync(path.join(tmpdir(), 'threadreach-config-'));

describe('configuration', () => {
  it('runs on embedded defaults with no variables at all', () => {
    const dir = dataDir();
    const config = loadConfig({ DATA_DIR: dir });
    expect(config).toMatchObject({
      port: 3000,
      publicUrl: 'http://localhost:3000',
      databaseUrl: undefined,
      demoMode: true,
      sso: { kind: 'dev', issuer: 'http://localhost:3000/dev-idp' },
    });
    expect(config.jwtSecret.length).toBeGreaterThanOrEqual(32);
    // Generated once, then kept.
    expect(loadConfig({ DATA_DIR: dir }).jwtSecret).toBe(config.jwtSecret);
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL: must be a postgres:// connection string'],
    [{ JWT_SECRET: 'short' }, 'JWT_SECRET: must be at least 32 characters'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ OIDC_ISSUER: 'https://id.example.com' }, 'must be set together'],
    [{ NODE_ENV: 'production' }, 'OIDC_ISSUER: required when NODE_ENV=production'],
  ])('stops with a message naming the variable for %j', (env, message) => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), ...env })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: dataDir(), ...env })).toThrow(message);
  });

  it('uses the configured OpenID Connect provider in production', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      OIDC_ISSUER: 'https://id.example.com',
      OIDC_CLIENT_ID: 'threadreach',
      OIDC_CLIENT_SECRET: 'secret',
      JWT_SECRET: 'x'.repeat(40),
      DATABASE_URL: 'postgres://db/threadreach',
      PUBLIC_URL: 'https://app.example.com/',
    });
    expect(config).toMatchObject({
      demoMode: false,
      publicUrl: 'https://app.example.com',
      sso: { kind: 'oidc', issuer: 'https://id.example.com', clientId: 'threadreach' },
    });
  });
});
