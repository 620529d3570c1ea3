import {
  PROXY_FAILURE_HIGHLIGHT,
  errorRateLevel,
  type TCredentialType,
  type TProxyHealthStatus,
  type TProxyPreferences,
} from '@threadreach/contract';

/** Shown for a credential without a proxy location preference. */
export const RANDOM_LOCATION = 'Random';
export const NEVER = 'Never';

export const TYPE_LABELS: Record<TCredentialType, string> = { search: 'Search', send: 'Send' };

/** The first 8 characters of an id, as the tables show it. */
export function shortId(id: string): string {
  return id.slice(0, 8);
}

/** 'country, state, city' from the parts that are set, or 'Random'. */
export function formatProxyLocation(prefs: TProxyPreferences | null | undefined): string {
  const parts = [prefs?.country, prefs?.state, prefs?.city].filter((p): p is string => !!p);
  return parts.length > 0 ? parts.join(', ') : RANDOM_LOCATION;
}

/** A timestamp in the browser's locale, or the fallback ('Never') when there is none. */
export function formatTimestamp(iso: string | null | undefined, fallback: string = NEVER): string {
  if (!iso) return fallback;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

export function formatPercent(value: number, digits = 1): string {
  return `${value.toFixed(digits)}%`;
}

/** Shown for a rate over no requests: there is nothing yet to be 100% or 0% of. */
export const NO_RATE = '—';

/** A percentage, or '—' while there are no requests to count it over. */
export function formatRate(percent: number, requests: number): string {
  return requests > 0 ? formatPercent(percent) : NO_RATE;
}

const ERROR_RATE_COLORS = { low: 'green', medium: 'yellow', high: 'orange', critical: 'red' } as const;

/** The error-rate band (low, medium, high, critical) and its badge colour. */
export function errorRateBand(percent: number) {
  const level = errorRateLevel(percent);
  return { level, color: ERROR_RATE_COLORS[level] };
}

/** Proxy health label and colour: healthy green, degraded yellow, anything else red, none 'Unknown'. */
export function proxyHealth(status: TProxyHealthStatus | null | undefined): { label: string; color: string } {
  if (!status) return { label: 'Unknown', color: 'gray' };
  if (status === 'healthy') return { label: 'healthy', color: 'green' };
  if (status === 'degraded') return { label: 'degraded', color: 'yellow' };
  return { label: status, color: 'red' };
}

/** Average proxy failure rate (a fraction) above the highlight threshold shows in red. */
export function isFailureRateHigh(fraction: number): boolean {
  return fraction > PROXY_FAILURE_HIGHLIGHT;
}
