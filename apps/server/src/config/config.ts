import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { checkProxyTemplate } from '../integrations/proxy/proxy-template';
import type { TSubscriptionPlan } from '@threadreach/contract';
import { DEFAULT_BILLING_PLANS, parseBillingPlans } from '../integrations/payments/billing-plans';
import { generateSecretKey, parseSecretKeys } from '../security/secrets';

const ZBoolString = z.stringbool();

/** Every environment variable the server reads. The README's configuration table mirrors this list. */
const ZEnv = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('localhost'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  PUBLIC_URL: z.url().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATA_DIR: z.string().min(1).optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, { error: 'must be a postgres:// connection string' })
    .optional(),
  JWT_SECRET: z.string().min(32, { error: 'must be at least 32 characters' }).optional(),
  SERVER_ID: z.string().min(1).default('threadreach-local'),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).max(86_400).default(900),
  REFRESH_TOKEN_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  OIDC_ISSUER: z.url().optional(),
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  MAIN_APP_URL: z.url().optional(),
  SUPPORT_CHAT_SCRIPT_URL: z.url().optional(),
  BILLING_PLANS: z.string().min(1).optional(),
  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  STRIPE_API_URL: z.url({ protocol: /^https?$/ }).optional(),
  STRIPE_PRICE_IDS: z.string().min(1).optional(),
  WEB_DIST_DIR: z.string().min(1).optional(),
  JOBS_ENABLED: ZBoolString.default(true),
  SECRETS_KEYS: z.string().min(1).optional(),
  REDDIT_API_URL: z.url().optional(),
  REDDIT_AUTH_URL: z.url().optional(),
  REDDIT_APP_ID: z
    .string()
    .regex(/^[A-Za-z0-9._-]+$/, { error: 'letters, digits, dots, dashes and underscores only' })
    .default('threadreach'),
  REDDIT_SIM_SEED: z.coerce.number().int().default(42),
  REDDIT_SIM_PORT: z.coerce.number().int().min(0).max(65_535).default(0),
  PROXY_URL_TEMPLATE: z.string().min(1).optional(),
  PROXY_ALLOWED_HOSTS: z.string().optional(),
  PROXY_MAX_FAILURES: z.coerce.number().int().min(1).max(100).default(3),
  LLM_BASE_URL: z.url().optional(),
  LLM_API_KEY: z.string().min(1).optional(),
  LLM_MODEL: z.string().min(1).optional(),
  LLM_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(30_000),
  DISCOVERY_INTERVAL_SECONDS: z.coerce.number().int().min(10).max(3600).default(60),
  LEAD_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  DM_EXPIRY_DAYS: z.coerce.number().int().min(1).max(365).default(14),
  RATE_LIMIT_SIGN_IN: z.coerce.number().int().min(0).max(1_000_000).default(120),
  RATE_LIMIT_PUBLIC: z.coerce.number().int().min(0).max(1_000_000).default(600),
  SSO_PENDING_MAX: z.coerce.number().int().min(10).max(10_000_000).default(10_000),
  SYSTEM_LOG_RETENTION_DAYS: z.coerce.number().int().min(1).max(366).default(14),
});
export type TEnv = z.infer<typeof ZEnv>;

/** The names of every variable, for the README check. */
export const CONFIG_VARIABLES = Object.keys(ZEnv.shape);

export interface Config {
  env: TEnv['NODE_ENV'];
  host: string;
  port: number;
  publicUrl: string;
  logLevel: TEnv['LOG_LEVEL'];
  dataDir: string;
  databaseUrl: string | undefined;
  jwtSecret: string;
  serverId: string;
  accessTokenTtlSeconds: number;
  refreshTokenTtlDays: number;
  /** Production SSO when an issuer is configured, otherwise the built-in development identity provider. */
  sso:
    | { kind: 'oidc'; issuer: string; clientId: string; clientSecret: string }
    | { kind: 'dev'; issuer: string; clientId: string; clientSecret: string };
  mainAppUrl: string | null;
  supportChatScriptUrl: string | null;
  /** Stripe Checkout + signed webhooks when a secret key is set, otherwise the local checkout page. */
  billing: BillingConfig;
  webDistDir: string;
  jobsEnabled: boolean;
  /** Keys for secrets at rest, newest first (security/secrets.ts). */
  secretKeys: { id: string; key: Buffer }[];
  /** Reddit's API and OAuth hosts, or the simulator started in-process. */
  reddit:
    | { kind: 'live'; apiUrl: string; authUrl: string; appId: string }
    | { kind: 'sim'; seed: number; appId: string; /** 0: any free port. */ port: number };
  /** Outbound proxies for credentials' traffic; null connects directly. */
  proxy: { urlTemplate: string | null; allowedHosts: string[]; maxFailures: number };
  /** OpenAI-compatible endpoint of the AI engine; null runs the offline engine. */
  llm: { baseUrl: string; apiKey: string | null; model: string; timeoutMs: number } | null;
  /** The embedded default: simulated Reddit, dev sign-in, local checkout. */
  demoMode: boolean;
  /** The shared discovery cycle's period, and how long leads are kept. */
  discovery: { intervalSeconds: number; leadRetentionDays: number };
  /** Requests per minute and client address on routes without a token; 0 turns a limit off. */
  rateLimits: { signInPerMinute: number; publicPerMinute: number };
  /** Sign-ins started but not finished that are kept at most; the oldest give way. */
  ssoPendingMax: number;
  /** How long /logs keeps log lines. */
  systemLogs: { retentionDays: number };
  /** Unsent DMs about leads older than this many days expire. */
  dms: { expiryDays: number };
}

export type BillingConfig =
  | {
      kind: 'stripe';
      secretKey: string;
      webhookSecret: string;
      /** STRIPE_API_URL: another Stripe API host (a local fake in tests); null for api.stripe.com. */
      api: { host: string; port: number; protocol: 'http' | 'https' } | null;
      /** STRIPE_PRICE_IDS: only these prices are offered; null offers every active price with a limit. */
      priceIds: string[] | null;
    }
  | { kind: 'local'; plans: TSubscriptionPlan[] };

/** Billing settings; the local checkout charges no card, so production must use Stripe. */
function billingConfig(e: TEnv, production: boolean): BillingConfig {
  const fail = (message: string) => new ConfigError(`Invalid configuration:\n  ${message}`);
  if (!e.STRIPE_SECRET_KEY) {
    if (e.STRIPE_WEBHOOK_SECRET || e.STRIPE_API_URL || e.STRIPE_PRICE_IDS) {
      throw fail(
        'STRIPE_SECRET_KEY: required when STRIPE_WEBHOOK_SECRET, STRIPE_API_URL or STRIPE_PRICE_IDS is set',
      );
    }
    if (production) {
      throw fail('STRIPE_SECRET_KEY: required when NODE_ENV=production (the local checkout charges no card)');
    }
    if (!e.BILLING_PLANS) return { kind: 'local', plans: DEFAULT_BILLING_PLANS };
    try {
      return { kind: 'local', plans: parseBillingPlans(e.BILLING_PLANS) };
    } catch (error) {
      throw fail(`BILLING_PLANS: ${(error as Error).message}`);
    }
  }
  if (!e.STRIPE_WEBHOOK_SECRET) throw fail('STRIPE_WEBHOOK_SECRET: required when STRIPE_SECRET_KEY is set');
  if (e.BILLING_PLANS) {
    throw fail(
      'BILLING_PLANS: only for the local checkout; with STRIPE_SECRET_KEY the plans are Stripe prices',
    );
  }
  let api: Extract<BillingConfig, { kind: 'stripe' }>['api'] = null;
  if (e.STRIPE_API_URL) {
    const url = new URL(e.STRIPE_API_URL);
    const protocol = url.protocol === 'http:' ? 'http' : 'https';
    api = { host: url.hostname, port: Number(url.port || (protocol === 'http' ? 80 : 443)), protocol };
  }
  const priceIds = e.STRIPE_PRICE_IDS?.split(',')
    .map((id) => id.trim())
    .filter(Boolean);
  return {
    kind: 'stripe',
    secretKey: e.STRIPE_SECRET_KEY,
    webhookSecret: e.STRIPE_WEBHOOK_SECRET,
    api,
    priceIds: priceIds?.length ? priceIds : null,
  };
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const REPO_ROOT = path.resolve(import.meta.dirname, '../../../..');

/** Parses the environment once; a bad value stops the start with a message naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const defined = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = ZEnv.safeParse(defined);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const production = e.NODE_ENV === 'production';
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '');
  // npm runs workspace scripts in the workspace folder; paths are meant from where the command was typed.
  const cwd = env.INIT_CWD ?? process.cwd();
  const dataDir = e.DATA_DIR ? path.resolve(cwd, e.DATA_DIR) : path.join(REPO_ROOT, 'data');

  const oidcVars = [e.OIDC_ISSUER, e.OIDC_CLIENT_ID, e.OIDC_CLIENT_SECRET];
  if (oidcVars.some(Boolean) && !oidcVars.every(Boolean)) {
    throw new ConfigError(
      'Invalid configuration:\n  OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET must be set together',
    );
  }
  if (production && !e.OIDC_ISSUER) {
    throw new ConfigError(
      'Invalid configuration:\n  OIDC_ISSUER: required when NODE_ENV=production (the development sign-in refuses to run in production)',
    );
  }
  if (production && !e.JWT_SECRET) {
    throw new ConfigError('Invalid configuration:\n  JWT_SECRET: required when NODE_ENV=production');
  }
  if (production && !e.DATABASE_URL) {
    throw new ConfigError('Invalid configuration:\n  DATABASE_URL: required when NODE_ENV=production');
  }

  if (e.LLM_BASE_URL && !e.LLM_MODEL) {
    throw new ConfigError('Invalid configuration:\n  LLM_MODEL: required when LLM_BASE_URL is set');
  }
  if (!e.LLM_BASE_URL && (e.LLM_MODEL || e.LLM_API_KEY)) {
    throw new ConfigError(
      'Invalid configuration:\n  LLM_BASE_URL: required when LLM_MODEL or LLM_API_KEY is set (without it the offline engine runs)',
    );
  }

  if (production && !e.SECRETS_KEYS) {
    throw new ConfigError('Invalid configuration:\n  SECRETS_KEYS: required when NODE_ENV=production');
  }
  if (e.REDDIT_AUTH_URL && !e.REDDIT_API_URL) {
    throw new ConfigError('Invalid configuration:\n  REDDIT_API_URL: required when REDDIT_AUTH_URL is set');
  }
  let secretKeyList: { id: string; key: Buffer }[] | undefined;
  if (e.SECRETS_KEYS) {
    try {
      secretKeyList = parseSecretKeys(e.SECRETS_KEYS);
    } catch (error) {
      throw new ConfigError(`Invalid configuration:\n  SECRETS_KEYS: ${(error as Error).message}`);
    }
    if (secretKeyList.length === 0)
      throw new ConfigError('Invalid configuration:\n  SECRETS_KEYS: no key given');
  }
  if (e.PROXY_URL_TEMPLATE) {
    try {
      checkProxyTemplate(e.PROXY_URL_TEMPLATE);
    } catch (error) {
      throw new ConfigError(`Invalid configuration:\n  PROXY_URL_TEMPLATE: ${(error as Error).message}`);
    }
  }
  const redditApiUrl = e.REDDIT_API_URL ?? (production ? 'https://oauth.reddit.com' : undefined);

  // Read (or generated) only when something is missing; production never falls back to it.
  let local: LocalSecrets | undefined;
  const localSecrets = () => (local ??= readLocalSecrets(dataDir));
  const jwtSecret = e.JWT_SECRET ?? localSecrets().jwtSecret;
  const sso: Config['sso'] = e.OIDC_ISSUER
    ? {
        kind: 'oidc',
        issuer: e.OIDC_ISSUER,
        clientId: e.OIDC_CLIENT_ID!,
        clientSecret: e.OIDC_CLIENT_SECRET!,
      }
    : {
        kind: 'dev',
        issuer: `${publicUrl}/dev-idp`,
        clientId: 'threadreach-web',
        clientSecret: localSecrets().devIdpClientSecret,
      };

  return {
    env: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    publicUrl,
    logLevel: e.LOG_LEVEL,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    jwtSecret,
    serverId: e.SERVER_ID,
    accessTokenTtlSeconds: e.ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenTtlDays: e.REFRESH_TOKEN_TTL_DAYS,
    sso,
    mainAppUrl: e.MAIN_APP_URL ?? null,
    supportChatScriptUrl: e.SUPPORT_CHAT_SCRIPT_URL ?? null,
    billing: billingConfig(e, production),
    webDistDir: e.WEB_DIST_DIR ? path.resolve(cwd, e.WEB_DIST_DIR) : path.join(REPO_ROOT, 'apps/web/dist'),
    jobsEnabled: e.JOBS_ENABLED,
    secretKeys: secretKeyList ?? [{ id: 'local', key: Buffer.from(localSecrets().secretsKey, 'base64') }],
    reddit: redditApiUrl
      ? {
          kind: 'live',
          apiUrl: redditApiUrl.replace(/\/$/, ''),
          authUrl: (
            e.REDDIT_AUTH_URL ?? (e.REDDIT_API_URL ? redditApiUrl : 'https://www.reddit.com')
          ).replace(/\/$/, ''),
          appId: e.REDDIT_APP_ID,
        }
      : { kind: 'sim', seed: e.REDDIT_SIM_SEED, appId: e.REDDIT_APP_ID, port: e.REDDIT_SIM_PORT },
    proxy: {
      urlTemplate: e.PROXY_URL_TEMPLATE ?? null,
      allowedHosts: (e.PROXY_ALLOWED_HOSTS ?? '')
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
      maxFailures: e.PROXY_MAX_FAILURES,
    },
    llm: e.LLM_BASE_URL
      ? {
          baseUrl: e.LLM_BASE_URL.replace(/\/$/, ''),
          apiKey: e.LLM_API_KEY ?? null,
          model: e.LLM_MODEL!,
          timeoutMs: e.LLM_TIMEOUT_MS,
        }
      : null,
    demoMode: sso.kind === 'dev',
    discovery: {
      intervalSeconds: e.DISCOVERY_INTERVAL_SECONDS,
      leadRetentionDays: e.LEAD_RETENTION_DAYS,
    },
    rateLimits: {
      signInPerMinute: e.RATE_LIMIT_SIGN_IN,
      publicPerMinute: e.RATE_LIMIT_PUBLIC,
    },
    ssoPendingMax: e.SSO_PENDING_MAX,
    systemLogs: { retentionDays: e.SYSTEM_LOG_RETENTION_DAYS },
    dms: { expiryDays: e.DM_EXPIRY_DAYS },
  };
}

interface LocalSecrets {
  jwtSecret: string;
  devIdpClientSecret: string;
  secretsKey: string;
}

/** Outside production, secrets nobody configured are generated once and kept beside the data. */
function readLocalSecrets(dataDir: string): LocalSecrets {
  const file = path.join(dataDir, 'local-secrets.json');
  const stored: Partial<LocalSecrets> = existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as Partial<LocalSecrets>)
    : {};
  if (stored.jwtSecret && stored.devIdpClientSecret && stored.secretsKey) return stored as LocalSecrets;
  // Values already there are kept: a new key must not orphan what the old ones protect.
  const fresh: LocalSecrets = {
    jwtSecret: stored.jwtSecret ?? randomBytes(32).toString('base64url'),
    devIdpClientSecret: stored.devIdpClientSecret ?? randomBytes(24).toString('base64url'),
    secretsKey: stored.secretsKey ?? generateSecretKey(),
  };
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, JSON.stringify(fresh, null, 2), { mode: 0o600 });
  return fresh;
}
