export interface RequestLogEntry {
  /** Simulator time, ms. */
  at: number;
  clientId: string | null;
  /** The user behind the token, when there is one. */
  user: string | null;
  method: string;
  path: string;
  /** Route pattern, e.g. `GET /r/{sub}/new`. */
  endpoint: string;
  status: number;
  /** `oauth` for API calls (what the rate limit counts), `www` for authorize/access_token, null if unrouted. */
  surface: 'www' | 'oauth' | null;
}

export interface ClientCounts {
  total: number;
  byEndpoint: Record<string, number>;
  firstAt: number;
  lastAt: number;
}

const MAX_ENTRIES = 200_000;

export class RequestLog {
  private entries: RequestLogEntry[] = [];

  add(entry: RequestLogEntry): void {
    this.entries.push(entry);
    if (this.entries.length > MAX_ENTRIES) this.entries.splice(0, this.entries.length - MAX_ENTRIES);
  }

  list(filter?: { clientId?: string; endpoint?: string }): RequestLogEntry[] {
    return this.entries.filter(
      (e) =>
        (filter?.clientId === undefined || e.clientId === filter.clientId) &&
        (filter?.endpoint === undefined || e.endpoint === filter.endpoint),
    );
  }

  countsByClient(): Record<string, ClientCounts> {
    const out: Record<string, ClientCounts> = {};
    for (const e of this.entries) {
      const key = e.clientId ?? '(none)';
      const c = (out[key] ??= { total: 0, byEndpoint: {}, firstAt: e.at, lastAt: e.at });
      c.total++;
      c.byEndpoint[e.endpoint] = (c.byEndpoint[e.endpoint] ?? 0) + 1;
      c.lastAt = e.at;
    }
    return out;
  }

  /** Largest number of API calls a client made inside any window of `windowMs` (what Reddit would have counted). */
  maxInWindow(clientId: string, windowMs = 60_000): number {
    const times = this.list({ clientId })
      .filter((e) => e.surface === 'oauth')
      .map((e) => e.at)
      .sort((a, b) => a - b);
    let best = 0;
    let start = 0;
    for (let end = 0; end < times.length; end++) {
      while ((times[end] ?? 0) - (times[start] ?? 0) >= windowMs) start++;
      best = Math.max(best, end - start + 1);
    }
    return best;
  }

  reset(): void {
    this.entries = [];
  }
}
