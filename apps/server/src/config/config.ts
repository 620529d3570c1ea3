import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

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
  WEB_DIST_DIR: z.string().min(1).optional(),
  JOBS_ENABLED: ZBoolString.default(true),
});
export type TEnv = z.infer<typeof ZEnv>;

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
  webDistDir: string;
  jobsEnabled: boolean;
  /** The embedded default: simulated Reddit, dev sign-in, local checkout. */
  demoMode: boolean;
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
    webDistDir: e.WEB_DIST_DIR ? path.resolve(cwd, e.WEB_DIST_DIR) : path.join(REPO_ROOT, 'apps/web/dist'),
    jobsEnabled: e.JOBS_ENABLED,
    demoMode: sso.kind === 'dev',
  };
}

interface LocalSecrets {
  jwtSecret: string;
  devIdpClientSecret: string;
}

/** Outside production, secrets nobody configured are generated once and kept beside the data. */
function readLocalSecrets(dataDir: string): LocalSecrets {
  const file = path.join(dataDir, 'local-secrets.json');
  if (existsSync(file)) {
    const stored = JSON.parse(readFileSync(file, 'utf8')) as Partial<LocalSecrets>;
    if (stored.jwtSecret && stored.devIdpClientSecret) return stored as LocalSecrets;
  }
  const fresh: LocalSecrets = {
    jwtSecret: randomBytes(32).toString('base64url'),
    devIdpClientSecret: randomBytes(24).toString('base64url'),
  };
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, JSON.stringify(fresh, null, 2), { mode: 0o600 });
  return fresh;
}
