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
    [{ LLM_BASE_URL: 'http://127.0.0.1:11434/v1' }, 'LLM_MODEL: required when LLM_BASE_URL is set'],
    [{ LLM_MODEL: 'llama3.1' }, 'LLM_BASE_URL: required when LLM_MODEL or LLM_API_KEY is set'],
    [{ LLM_BASE_URL: 'not a url', LLM_MODEL: 'm' }, 'LLM_BASE_URL'],
    [{ LLM_BASE_URL: 'http://x/v1', LLM_MODEL: 'm', LLM_TIMEOUT_MS: '5' }, 'LLM_TIMEOUT_MS'],
  ])('stops with a message naming the variable for %j', (env, message) => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), ...env })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: dataDir(), ...env })).toThrow(message);
  });

  it('runs the offline AI engine unless an LLM endpoint is configured', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).llm).toBeNull();
    const config = loadConfig({
      DATA_DIR: dataDir(),
      LLM_BASE_URL: 'http://127.0.0.1:11434/v1/',
      LLM_MODEL: 'llama3.1',
      LLM_API_KEY: 'sk-test',
    });
    expect(config.llm).toEqual({
      baseUrl: 'http://127.0.0.1:11434/v1',
      apiKey: 'sk-test',
      model: 'llama3.1',
      timeoutMs: 30_000,
    });
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
      STRIPE_SECRET_KEY: 'sk_live_x',
      STRIPE_WEBHOOK_SECRET: 'whsec_x',
      SECRETS_KEYS: `v1:${Buffer.alloc(32, 7).toString('base64')}`,
    });
    expect(config).toMatchObject({
      demoMode: false,
      reddit: { kind: 'live', apiUrl: 'https://oauth.reddit.com', authUrl: 'https://www.reddit.com' },
      publicUrl: 'https://app.example.com',
      sso: { kind: 'oidc', issuer: 'https://id.example.com', clientId: 'threadreach' },
    });
  });

  it('sells plans from BILLING_PLANS through the local checkout, or Stripe prices with a secret key', () => {
    const byDefault = loadConfig({ DATA_DIR: dataDir() }).billing;
    expect(byDefault.kind).toBe('local');
    expect(byDefault.kind === 'local' && byDefault.plans.map((p) => p.profiles_limit)).toEqual([1, 3, 10]);

    const configured = loadConfig({
      DATA_DIR: dataDir(),
      BILLING_PLANS: JSON.stringify([
        { price_id: 'solo', product_name: 'Solo', amount: 1500, profiles_limit: 2, currency: 'EUR' },
      ]),
    }).billing;
    expect(configured).toEqual({
      kind: 'local',
      plans: [
        {
          price_id: 'solo',
          product_name: 'Solo',
          amount: 1500,
          currency: 'eur',
          interval: 'month',
          interval_count: 1,
          profiles_limit: 2,
          description: null,
        },
      ],
    });

    const stripe = loadConfig({
      DATA_DIR: dataDir(),
      STRIPE_SECRET_KEY: 'sk_test_x',
      STRIPE_WEBHOOK_SECRET: 'whsec_x',
      STRIPE_API_URL: 'http://127.0.0.1:12111',
      STRIPE_PRICE_IDS: 'price_a, price_b',
    }).billing;
    expect(stripe).toEqual({
      kind: 'stripe',
      secretKey: 'sk_test_x',
      webhookSecret: 'whsec_x',
      api: { host: '127.0.0.1', port: 12111, protocol: 'http' },
      priceIds: ['price_a', 'price_b'],
    });
  });

  it.each([
    [{ BILLING_PLANS: 'not json' }, 'BILLING_PLANS: must be a JSON array of plans'],
    [{ BILLING_PLANS: '[]' }, 'BILLING_PLANS: must list at least one plan'],
    [
      { BILLING_PLANS: '[{"price_id":"a","product_name":"A","amount":100}]' },
      'BILLING_PLANS: 0.profiles_limit',
    ],
    [
      {
        NODE_ENV: 'production',
        OIDC_ISSUER: 'https://id.example.com',
        OIDC_CLIENT_ID: 'threadreach',
        OIDC_CLIENT_SECRET: 'secret',
        JWT_SECRET: 'x'.repeat(40),
        DATABASE_URL: 'postgres://db/threadreach',
        SECRETS_KEYS: `v1:${Buffer.alloc(32, 7).toString('base64')}`,
      },
      'STRIPE_SECRET_KEY: required when NODE_ENV=production',
    ],
    [{ STRIPE_SECRET_KEY: 'sk_test_x' }, 'STRIPE_WEBHOOK_SECRET: required when STRIPE_SECRET_KEY is set'],
    [{ STRIPE_WEBHOOK_SECRET: 'whsec_x' }, 'STRIPE_SECRET_KEY: required when STRIPE_WEBHOOK_SECRET'],
    [{ STRIPE_SECRET_KEY: 'sk', STRIPE_WEBHOOK_SECRET: 'wh', STRIPE_API_URL: 'ftp://x' }, 'STRIPE_API_URL'],
    [
      { STRIPE_SECRET_KEY: 'sk', STRIPE_WEBHOOK_SECRET: 'wh', BILLING_PLANS: '[]' },
      'BILLING_PLANS: only for the local',
    ],
  ])('stops on a bad billing setting %j', (env, message) => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), ...env })).toThrow(message);
  });
});
