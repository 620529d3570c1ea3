import { z } from 'zod';
import { ZIsoDateTime, ZPage, ZPageQuery, ZText } from './common.schema';

/** search: app-only OAuth for discovery; send: a web-app OAuth client through which accounts connect. */
export const CREDENTIAL_TYPES = ['search', 'send'] as const;
export const ZCredentialType = z.enum(CREDENTIAL_TYPES, { error: "type must be 'search' or 'send'" });
export type TCredentialType = z.infer<typeof ZCredentialType>;

export const PROXY_COUNTRY_MAX = 2;
export const PROXY_STATE_MAX = 10;
export const PROXY_CITY_MAX = 50;
export const CREDENTIAL_ACCOUNT_NAME_MAX = 100;
export const CREDENTIAL_CLIENT_ID_MAX = 200;
export const CREDENTIAL_SECRET_MAX = 500;
export const CREDENTIAL_DESCRIPTION_MAX = 1000;

/**
 * Letters of any language (with their accents), digits, spaces, dots and dashes: "São Paulo", "Zürich",
 * "東京". Nothing that could change a proxy URL's structure; the server also percent-encodes each value.
 */
export const PROXY_PLACE_PATTERN = /^[\p{L}\p{M}\p{N} ._-]*$/u;

/** An ISO 3166 country code such as US or de, as proxy providers take it; empty for any country. */
export const PROXY_COUNTRY_PATTERN = /^([A-Za-z]{2})?$/;

const proxyPart = (max: number, label: string, pattern = PROXY_PLACE_PATTERN, patternError?: string) =>
  z
    .string()
    .trim()
    // One form per accented letter, so "São" counts 3 characters however the keyboard composed it.
    .overwrite((v) => v.normalize('NFC'))
    // Too long says only that, not also what the pattern wants.
    .max(max, { error: `${label} must be at most ${max} characters`, abort: true })
    .regex(pattern, {
      error: patternError ?? `${label} may contain only letters, digits, spaces, dots and dashes`,
    })
    .transform((v) => (v === '' ? null : v))
    .nullish();

export const ZProxyPreferencesInput = z.object({
  country: proxyPart(
    PROXY_COUNTRY_MAX,
    'Country code',
    PROXY_COUNTRY_PATTERN,
    'Country code must be two letters, such as US',
  ),
  state: proxyPart(PROXY_STATE_MAX, 'State'),
  city: proxyPart(PROXY_CITY_MAX, 'City'),
});
export type TProxyPreferencesInput = z.input<typeof ZProxyPreferencesInput>;

export const ZProxyPreferences = z.object({
  country: z.string().nullable(),
  state: z.string().nullable(),
  city: z.string().nullable(),
});
export type TProxyPreferences = z.infer<typeof ZProxyPreferences>;

const required = (label: string, max: number) =>
  ZText({ error: `${label} is required` })
    .trim()
    .min(1, { error: `${label} is required` })
    .max(max, { error: `${label} must be at most ${max} characters` });

const ZDescription = ZText()
  .trim()
  .max(CREDENTIAL_DESCRIPTION_MAX, {
    error: `Description must be at most ${CREDENTIAL_DESCRIPTION_MAX} characters`,
  })
  .nullish();

export const ZCreateCredentialRequest = z.object({
  type: ZCredentialType,
  account_name: required('Account name', CREDENTIAL_ACCOUNT_NAME_MAX),
  client_id: required('Client ID', CREDENTIAL_CLIENT_ID_MAX),
  client_secret: required('Client secret', CREDENTIAL_SECRET_MAX),
  description: ZDescription,
  enabled: z.boolean().default(true),
  proxy_preferences: ZProxyPreferencesInput.nullish(),
});
export type TCreateCredentialRequest = z.input<typeof ZCreateCredentialRequest>;

/** Same body as create; an absent client_secret keeps the current one. */
export const ZUpdateCredentialRequest = z.object({
  type: ZCredentialType.optional(),
  account_name: required('Account name', CREDENTIAL_ACCOUNT_NAME_MAX).optional(),
  client_id: required('Client ID', CREDENTIAL_CLIENT_ID_MAX).optional(),
  client_secret: required('Client secret', CREDENTIAL_SECRET_MAX).optional(),
  description: ZDescription,
  enabled: z.boolean().optional(),
  proxy_preferences: ZProxyPreferencesInput.nullish(),
});
export type TUpdateCredentialRequest = z.input<typeof ZUpdateCredentialRequest>;

export const ZCredentialParams = z.object({ id: z.uuid({ error: 'Credential not found' }) });

export const ZListCredentialsQuery = ZPageQuery.extend({
  include_disabled: z.stringbool().default(false),
  credential_type: ZCredentialType.optional(),
});
export type TListCredentialsQuery = z.input<typeof ZListCredentialsQuery>;

export const ZToggleCredentialQuery = z.object({
  enabled: z.stringbool({ error: 'enabled must be true or false' }),
});

/** A credential as every response shows it: the client secret is write-only and never returned. */
export const ZCredential = z
  .object({
    id: z.string(),
    type: ZCredentialType,
    account_name: z.string(),
    client_id: z.string(),
    client_id_prefix: z.string(),
    description: z.string().nullable(),
    enabled: z.boolean(),
    proxy_preferences: ZProxyPreferences,
    usage_stats: z.object({
      total_requests: z.number().int(),
      active_clients: z.number().int(),
      /** Connected accounts signed in through this send credential: while any are, it cannot be deleted. */
      connected_accounts: z.number().int(),
    }),
    last_used: ZIsoDateTime.nullable(),
    created_at: ZIsoDateTime,
  })
  .meta({ id: 'Credential' });
export type TCredential = z.infer<typeof ZCredential>;

export const ZCredentialList = ZPage(ZCredential);
export type TCredentialList = z.infer<typeof ZCredentialList>;

export const PROXY_HEALTH_STATUSES = ['healthy', 'degraded', 'failed'] as const;
export const ZProxyHealthStatus = z.enum(PROXY_HEALTH_STATUSES);
export type TProxyHealthStatus = z.infer<typeof ZProxyHealthStatus>;

export const ZEfficiencyStats = z.object({
  success_rate_percent: z.number(),
  error_rate_percent: z.number(),
  total_requests: z.number().int(),
  success_count: z.number().int(),
  failure_count: z.number().int(),
  active_clients: z.number().int(),
  total_clients_created: z.number().int(),
  total_proxy_requests: z.number().int(),
  /** null when the credential has no proxy (direct connection) or it was never checked. */
  proxy_health_status: ZProxyHealthStatus.nullable(),
  proxy_replacement_count: z.number().int(),
  last_health_check: ZIsoDateTime.nullable(),
  last_proxy_error: z.string().nullable(),
});
export type TEfficiencyStats = z.infer<typeof ZEfficiencyStats>;

export const ZCredentialDetailed = ZCredential.extend({
  /** The proxy this credential's traffic leaves through, with its password masked; null when direct. */
  proxy_masked: z.string().nullable(),
  /** Whether the server has a proxy provider (PROXY_URL_TEMPLATE): without one there is nothing to replace with. */
  proxy_provider_configured: z.boolean(),
  efficiency_stats: ZEfficiencyStats,
}).meta({ id: 'CredentialDetailed' });
export type TCredentialDetailed = z.infer<typeof ZCredentialDetailed>;

export const ZConnectionTestResult = z.object({
  can_connect: z.boolean(),
  response_time_ms: z.number().int(),
  error: z.string().nullable(),
});
export type TConnectionTestResult = z.infer<typeof ZConnectionTestResult>;

export const ZProxyPoolStats = z.object({
  total_proxies: z.number().int(),
  healthy_proxies: z.number().int(),
  degraded_proxies: z.number().int(),
  failed_proxies: z.number().int(),
  total_requests: z.number().int(),
  total_replacements_24h: z.number().int(),
  current_active_failures: z.number().int(),
  last_replacement_time: ZIsoDateTime.nullable(),
  /** A fraction in 0..1 (failures / requests through proxies). */
  avg_failure_rate: z.number(),
});
export type TProxyPoolStats = z.infer<typeof ZProxyPoolStats>;

export const ZProxyDetail = z.object({
  credential_id: z.string(),
  proxy_masked: z.string(),
  health_status: ZProxyHealthStatus.nullable(),
  success_count: z.number().int(),
  failure_count: z.number().int(),
  last_health_check: ZIsoDateTime.nullable(),
  last_error: z.string().nullable(),
});
export type TProxyDetail = z.infer<typeof ZProxyDetail>;

export const ZProxyDetailList = ZPage(ZProxyDetail);
export type TProxyDetailList = z.infer<typeof ZProxyDetailList>;
export const ZListProxyDetailsQuery = ZPageQuery;

/** Success-rate bar colour bands of the details dialog. */
export function successRateColor(percent: number): 'green' | 'yellow' | 'orange' | 'red' {
  if (percent >= 95) return 'green';
  if (percent >= 85) return 'yellow';
  if (percent >= 70) return 'orange';
  return 'red';
}

/** Error-rate badge bands of the details dialog. */
export function errorRateLevel(percent: number): 'low' | 'medium' | 'high' | 'critical' {
  if (percent < 5) return 'low';
  if (percent < 15) return 'medium';
  if (percent < 30) return 'high';
  return 'critical';
}

/** Proxy failure rates above this fraction are shown in red. */
export const PROXY_FAILURE_HIGHLIGHT = 0.05;
