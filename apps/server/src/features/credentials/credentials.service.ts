import { randomUUID } from 'node:crypto';
import type {
  TConnectionTestResult,
  TCreateCredentialRequest,
  TCredential,
  TCredentialDetailed,
  TCredentialList,
  TCredentialType,
  TPageQuery,
  TUpdateCredentialRequest,
} from '@threadreach/contract';
import type { AppContext } from '../../context';
import { AppError, notFound } from '../../http/errors';
import {
  activeTokenCounts,
  deleteRequestStats,
  deleteTokens,
  RedditClient,
  requestTotals,
} from '../../integrations/reddit';
import { SecretDecryptError } from '../../security/secrets';
import {
  assignProxy,
  checkProxy,
  dispatcherFor,
  recordProxyOutcome,
  releaseProxy,
  replaceProxy,
  type ProxyOwner,
} from './proxy-pool.service';
import { findProxies, findProxy } from './proxy-pool.repository';
import {
  connectedAccountCounts,
  deleteUnusedCredential,
  findCredential,
  findCredentialByClientId,
  insertCredential,
  listCredentials,
  listEnabledCredentials,
  setCredentialRefused,
  touchCredential,
  updateCredential,
  type NewCredential,
} from './credentials.repository';
import { presentCredential, presentCredentialDetailed, type CredentialUsage } from './credentials.presenter';
import type { CredentialRow } from './credentials.table';

const secretRef = (id: string) => ({ table: 'reddit_credentials', rowId: id, column: 'client_secret' });

const credentialNotFound = () => notFound('Credential not found');

/** The credential's client secret in clear, for the Reddit client; throws SecretDecryptError. */
export function readClientSecret(ctx: AppContext, row: CredentialRow): string {
  return ctx.secrets.decrypt(row.clientSecret, secretRef(row.id));
}
const duplicateClientId = () =>
  new AppError(409, 'duplicate_client_id', 'A credential with this client ID already exists.');

/**
 * Deleting the credential, or changing its client ID, would sign these accounts out (Reddit granted them
 * to its client ID); disabling keeps them.
 */
const credentialInUse = (accounts: number, change: 'delete' | 'client_id') =>
  new AppError(
    409,
    'credential_in_use',
    `${accounts === 1 ? '1 connected Reddit account signs' : `${accounts} connected Reddit accounts sign`} ` +
      (change === 'delete'
        ? 'in through this credential and would have to be re-authenticated if it were deleted. Disable it instead'
        : "in through this credential's client ID and would have to be re-authenticated if it changed. " +
          'Add a credential for the other Reddit app instead, and disable this one') +
      ': connected accounts keep working and no new accounts connect through it.',
  );

function owner(row: CredentialRow): ProxyOwner {
  return {
    id: row.id,
    accountName: row.accountName,
    country: row.proxyCountry,
    state: row.proxyState,
    city: row.proxyCity,
  };
}

async function usageOf(ctx: AppContext, ids: string[]): Promise<Map<string, CredentialUsage>> {
  const [totals, active, accounts] = await Promise.all([
    requestTotals(ctx.db, ids),
    activeTokenCounts(ctx.db, ids, ctx.clock.now()),
    connectedAccountCounts(ctx.db, ids),
  ]);
  return new Map(
    ids.map((id) => [
      id,
      {
        totals: totals.get(id)!,
        activeClients: active.get(id) ?? 0,
        connectedAccounts: accounts.get(id) ?? 0,
      },
    ]),
  );
}

async function presentOne(ctx: AppContext, row: CredentialRow): Promise<TCredential> {
  return presentCredential(row, (await usageOf(ctx, [row.id])).get(row.id)!);
}

async function requireCredential(ctx: AppContext, id: string): Promise<CredentialRow> {
  const row = await findCredential(ctx.db, id);
  if (!row) throw credentialNotFound();
  return row;
}

function isUniqueViolation(error: unknown): boolean {
  const code =
    (error as { code?: string; cause?: { code?: string } }).code ??
    (error as { cause?: { code?: string } }).cause?.code;
  return code === '23505';
}

export async function listCredentialsPage(
  ctx: AppContext,
  query: { credential_type?: TCredentialType; include_disabled: boolean } & TPageQuery,
): Promise<TCredentialList> {
  const { rows, total } = await listCredentials(
    ctx.db,
    { type: query.credential_type, includeDisabled: query.include_disabled },
    query,
  );
  const usage = await usageOf(
    ctx,
    rows.map((r) => r.id),
  );
  return {
    items: rows.map((r) => presentCredential(r, usage.get(r.id)!)),
    total,
    limit: query.limit,
    offset: query.offset,
  };
}

type CreateInput = Omit<TCreateCredentialRequest, 'enabled'> & { enabled: boolean };

export async function createCredential(ctx: AppContext, input: CreateInput): Promise<TCredential> {
  if (await findCredentialByClientId(ctx.db, input.client_id)) throw duplicateClientId();
  const id = randomUUID();
  let row: CredentialRow;
  try {
    row = await ctx.db.transaction(async (tx) => {
      const inserted = await insertCredential(tx, {
        id,
        type: input.type,
        accountName: input.account_name,
        clientId: input.client_id,
        clientSecret: ctx.secrets.encrypt(input.client_secret, secretRef(id)),
        description: input.description ?? null,
        enabled: input.enabled,
        proxyCountry: input.proxy_preferences?.country ?? null,
        proxyState: input.proxy_preferences?.state ?? null,
        proxyCity: input.proxy_preferences?.city ?? null,
      });
      await assignProxy(ctx, owner(inserted), tx);
      return inserted;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateClientId();
    throw error;
  }
  ctx.log.info({ credentialId: id, type: row.type }, 'credential created');
  return presentOne(ctx, row);
}

export async function updateCredentialById(
  ctx: AppContext,
  id: string,
  input: TUpdateCredentialRequest,
): Promise<TCredential> {
  const current = await requireCredential(ctx, id);
  const newClientId =
    input.client_id !== undefined && input.client_id !== current.clientId ? input.client_id : null;
  if (newClientId !== null) {
    await refuseWhileInUse(ctx, id, 'client_id');
    if (await findCredentialByClientId(ctx.db, newClientId)) throw duplicateClientId();
  }
  const values: Partial<NewCredential> = {};
  if (input.type !== undefined) values.type = input.type;
  if (input.account_name !== undefined) values.accountName = input.account_name;
  if (input.client_id !== undefined) values.clientId = input.client_id;
  if (input.client_secret) values.clientSecret = ctx.secrets.encrypt(input.client_secret, secretRef(id));
  const newClient = newClientId !== null || values.clientSecret !== undefined;
  // New client details deserve a try before the credentials Reddit is known to accept.
  if (newClient) values.refusedAt = null;
  if (input.description !== undefined) values.description = input.description;
  if (input.enabled !== undefined) values.enabled = input.enabled;
  if (input.proxy_preferences !== undefined) {
    values.proxyCountry = input.proxy_preferences?.country ?? null;
    values.proxyState = input.proxy_preferences?.state ?? null;
    values.proxyCity = input.proxy_preferences?.city ?? null;
  }
  const locationChanged =
    input.proxy_preferences !== undefined &&
    (values.proxyCountry !== current.proxyCountry ||
      values.proxyState !== current.proxyState ||
      values.proxyCity !== current.proxyCity);
  let row: CredentialRow | null;
  try {
    row = await ctx.db.transaction(async (tx) => {
      const updated = await updateCredential(tx, id, values, new Date(ctx.clock.now()));
      if (updated && locationChanged) await assignProxy(ctx, owner(updated), tx);
      return updated;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateClientId();
    throw error;
  }
  if (!row) throw credentialNotFound();
  // Tokens granted to the old client id or secret must not outlive them.
  if (newClient) await deleteTokens(ctx.db, id);
  return presentOne(ctx, row);
}

export async function setCredentialEnabled(
  ctx: AppContext,
  id: string,
  enabled: boolean,
): Promise<TCredential> {
  const row = await updateCredential(ctx.db, id, { enabled }, new Date(ctx.clock.now()));
  if (!row) throw credentialNotFound();
  return presentOne(ctx, row);
}

async function refuseWhileInUse(
  ctx: AppContext,
  id: string,
  change: 'delete' | 'client_id' = 'delete',
): Promise<void> {
  const accounts = (await connectedAccountCounts(ctx.db, [id])).get(id) ?? 0;
  if (accounts > 0) throw credentialInUse(accounts, change);
}

/** Refused (409) while connected accounts sign in through the credential. */
export async function deleteCredentialById(ctx: AppContext, id: string): Promise<void> {
  await refuseWhileInUse(ctx, id);
  await releaseProxy(ctx, id);
  if (!(await deleteUnusedCredential(ctx.db, id))) {
    // Either an account connected through it since the count, or it is gone.
    await refuseWhileInUse(ctx, id);
    throw credentialNotFound();
  }
  await deleteTokens(ctx.db, id);
  await deleteRequestStats(ctx.db, id);
  ctx.log.info({ credentialId: id }, 'credential deleted');
}

export async function getCredentialDetailed(ctx: AppContext, id: string): Promise<TCredentialDetailed> {
  const row = await requireCredential(ctx, id);
  const [usage, proxy] = await Promise.all([usageOf(ctx, [id]), findProxy(ctx.db, id)]);
  return presentCredentialDetailed(row, usage.get(id)!, proxy, Boolean(ctx.config.proxy.urlTemplate));
}

/** A real call to Reddit with the credential, through its proxy. */
export async function testCredentialConnection(ctx: AppContext, id: string): Promise<TConnectionTestResult> {
  const row = await requireCredential(ctx, id);
  let client: RedditClient;
  try {
    client = await redditClientFor(ctx, row);
  } catch (error) {
    return { can_connect: false, response_time_ms: 0, error: (error as Error).message };
  }
  const result = await client.testConnection();
  return { can_connect: result.canConnect, response_time_ms: result.responseTimeMs, error: result.error };
}

export async function replaceCredentialProxy(ctx: AppContext, id: string): Promise<TCredentialDetailed> {
  const row = await requireCredential(ctx, id);
  if (!ctx.config.proxy.urlTemplate) {
    throw new AppError(
      409,
      'no_proxy_provider',
      'No proxy provider is configured (PROXY_URL_TEMPLATE), so this credential connects directly.',
    );
  }
  await replaceProxy(ctx, owner(row), 'replaced by an administrator');
  return getCredentialDetailed(ctx, id);
}

/**
 * The Reddit client of one credential: its decrypted secret, its proxy, the shared budget. Request
 * outcomes feed the proxy's health, and use is recorded on the credential.
 */
export async function redditClientFor(
  ctx: AppContext,
  credential: CredentialRow | string,
): Promise<RedditClient> {
  const row = typeof credential === 'string' ? await requireCredential(ctx, credential) : credential;
  const endpoints = ctx.reddit.endpoints;
  if (!endpoints) throw new AppError(503, 'reddit_unavailable', 'Reddit is not configured on this server.');
  const clientSecret = readClientSecret(ctx, row);
  return new RedditClient(
    {
      endpoints,
      appId: ctx.reddit.appId,
      version: ctx.reddit.version,
      db: ctx.db,
      secrets: ctx.secrets,
      clock: ctx.clock,
      log: ctx.log,
    },
    {
      id: row.id,
      clientId: row.clientId,
      clientSecret,
      accountName: row.accountName,
      connection: () => dispatcherFor(ctx, row.id),
      onTransport: async (outcome) => {
        if (outcome.proxied) await recordProxyOutcome(ctx, owner(row), outcome);
        if (outcome.ok) await touchCredential(ctx.db, row.id, new Date(ctx.clock.now()));
      },
      onVerdict: async (accepted) => {
        const refusedNow = await setCredentialRefused(
          ctx.db,
          row.id,
          accepted ? null : new Date(ctx.clock.now()),
        );
        if (refusedNow) {
          ctx.log.warn(
            { credentialId: row.id, accountName: row.accountName },
            'Reddit refused the credential: its client id or secret is wrong',
          );
        }
      },
    },
  );
}

/**
 * The scheduled job: while a provider template is configured, every enabled credential without a proxy
 * (one from before PROXY_URL_TEMPLATE was set) gets one; then each proxy's health is checked.
 */
export async function checkAllProxies(
  ctx: AppContext,
): Promise<{ assigned: number; checked: number; failed: number }> {
  const template = ctx.config.proxy.urlTemplate;
  const rows = await listEnabledCredentials(ctx.db);
  const proxied = new Set(
    (
      await findProxies(
        ctx.db,
        rows.map((r) => r.id),
      )
    ).map((p) => p.credentialId),
  );
  let assigned = 0;
  let checked = 0;
  let failed = 0;
  for (const row of rows) {
    const lacksProxy = !proxied.has(row.id);
    // Without a template credentials connect directly: there is no proxy to give or check.
    if (lacksProxy && !template) continue;
    checked++;
    try {
      if (lacksProxy) {
        await assignProxy(ctx, owner(row));
        assigned++;
        ctx.log.info({ credentialId: row.id }, 'proxy assigned');
      }
      const client = await redditClientFor(ctx, row);
      if (!(await checkProxy(ctx, owner(row), client.transport)).ok) failed++;
    } catch (error) {
      // One unreadable or broken proxy must not stop the others' checks.
      failed++;
      ctx.log.error({ err: error, credentialId: row.id }, 'proxy health check failed');
    }
  }
  return { assigned, checked, failed };
}

/**
 * Clients of every enabled credential of one type ('search' reads listings, 'send' connects accounts),
 * least recently used first, so work spreads over all of them; those Reddit last refused come after the
 * others, so a wrong secret does not fail every other sign-in or search while a working one is there.
 */
export async function redditClientsOfType(ctx: AppContext, type: 'search' | 'send'): Promise<RedditClient[]> {
  const rows = (await listEnabledCredentials(ctx.db))
    .filter((r) => r.type === type)
    .sort(
      (a, b) =>
        Number(a.refusedAt !== null) - Number(b.refusedAt !== null) ||
        (a.lastUsedAt?.getTime() ?? 0) - (b.lastUsedAt?.getTime() ?? 0),
    );
  const clients: RedditClient[] = [];
  for (const row of rows) {
    try {
      clients.push(await redditClientFor(ctx, row));
    } catch (error) {
      // A secret sealed with a key this server no longer holds must not stop the others.
      if (!(error instanceof SecretDecryptError)) throw error;
      ctx.log.warn({ credentialId: row.id }, 'reddit credential skipped: its secret cannot be read');
    }
  }
  return clients;
}

/** The least recently used enabled search credential's client; 503 when there is none. */
export async function searchRedditClient(ctx: AppContext): Promise<RedditClient> {
  const [client] = await redditClientsOfType(ctx, 'search');
  if (!client) {
    throw new AppError(503, 'no_search_credential', 'No enabled Reddit search credential is configured.');
  }
  return client;
}
