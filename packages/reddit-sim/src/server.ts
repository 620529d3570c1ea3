import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Clock, createClock } from './clock';
import { Corpus } from './corpus/corpus';
import { type Fault, type FaultSpec, Faults } from './faults';
import { type AccessToken, type RouteContext, type SimResponse, json, redditError } from './http';
import { type ClientCounts, RequestLog, type RequestLogEntry } from './inspect';
import {
  info,
  search,
  subredditAbout,
  subredditNew,
  subredditSearch,
  userAbout,
  userData,
  userItems,
} from './listings';
import { type MessageStyle, Messages, type StoredMessage } from './messages';
import { type ClientRegistration, OAuth, hasScope } from './oauth';
import { postPage, userPage } from './pages';
import { type RateLimitOptions, RateLimiter } from './rate-limit';

export interface RedditSimOptions {
  port?: number;
  host?: string;
  /** Seed of the generated corpus and of probabilistic faults. Default 42. */
  seed?: number;
  /** Injected clock in ms. Without it the simulator keeps its own clock, which `advance()` moves. */
  now?: () => number;
  /** Start time of the simulator's own clock (ms); default: the real time. Ignored with `now`. */
  startTime?: number;
  /** Auto-register any client id/secret pair on first use; the secret is then fixed. Default true. */
  acceptAnyClient?: boolean;
  /** Reddit's limit per OAuth client id; default 1000 requests per 600 s window. */
  rateLimit?: RateLimitOptions;
  /**
   * `classic` (default): a DM keeps its subject and replies are `re: <subject>`, one item each.
   * `chat`: what Reddit sends since chat replaced private messages: subject `[direct chat room]`,
   * `type: "unknown"`, and the inbox threads a conversation under its first message (`replies`).
   */
  messageStyle?: MessageStyle;
  /**
   * A file to keep the refresh tokens it grants in, so they still work after a restart (the demo's
   * connected accounts); without it they last as long as the process.
   */
  grantsFile?: string;
}

type Surface = 'www' | 'oauth';

interface Route {
  method: string;
  pattern: RegExp;
  endpoint: string;
  surface: Surface;
  /** Scope the bearer token needs. */
  scope?: string;
  /** Needs a user token, not an app-only one. */
  user?: boolean;
  handle: (ctx: RouteContext) => SimResponse;
}

/** User-Agents that identify a library rather than an app; Reddit throttles these, the simulator refuses them. */
const GENERIC_AGENT =
  /^(node|undici|node-fetch|axios|got|superagent|python-requests|python-urllib\d*|python-httpx|aiohttp|curl|wget|go-http-client|okhttp|java|libwww-perl|ruby|deno|bun|postmanruntime|insomnia)(\/.*)?$/i;

export function isGenericUserAgent(agent: string | undefined): boolean {
  const ua = (agent ?? '').trim();
  return ua === '' || GENERIC_AGENT.test(ua) || /^mozilla\/5\.0$/i.test(ua);
}

/** Fields Reddit HTML-escapes unless the client passes raw_json=1. */
const LEGACY_ESCAPED = new Set([
  'title',
  'selftext',
  'body',
  'link_title',
  'public_description',
  'description',
  'subject',
]);

function legacyEscape(value: unknown, key?: string): unknown {
  if (typeof value === 'string') {
    return key && LEGACY_ESCAPED.has(key)
      ? value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
      : value;
  }
  if (Array.isArray(value)) return value.map((v) => legacyEscape(v));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, legacyEscape(v, k)]));
  }
  return value;
}

export class SimCore {
  readonly clock: Clock;
  readonly corpus: Corpus;
  readonly oauth: OAuth;
  readonly messages: Messages;
  readonly rateLimiter: RateLimiter;
  readonly faults: Faults;
  readonly requestLog = new RequestLog();
  private readonly routes: Route[];

  constructor(readonly options: RedditSimOptions = {}) {
    const seed = options.seed ?? 42;
    this.clock = createClock(options.now, options.startTime);
    this.corpus = new Corpus(seed, this.clock.now());
    this.oauth = new OAuth(this.corpus.users, options.acceptAnyClient ?? true, options.grantsFile);
    this.messages = new Messages(this.corpus, options.messageStyle ?? 'classic');
    this.rateLimiter = new RateLimiter(options.rateLimit);
    this.faults = new Faults(seed);
    this.routes = this.buildRoutes();
  }

  registerClient(reg: ClientRegistration): void {
    this.oauth.registerClient(reg);
  }

  private buildRoutes(): Route[] {
    const c = this.corpus;
    const seg = '([^/]+)';
    const r = (
      method: string,
      path: string,
      endpoint: string,
      surface: Surface,
      handle: Route['handle'],
      extra: Partial<Route> = {},
    ): Route => ({ method, pattern: new RegExp(`^${path}$`, 'i'), endpoint, surface, handle, ...extra });
    const userOf = (ctx: RouteContext) => {
      const user = ctx.token?.user;
      if (!user) throw new Error('route needs a user token');
      return user;
    };
    return [
      r('GET', '/api/v1/authorize(?:\\.compact)?', 'GET /api/v1/authorize', 'www', (ctx) =>
        this.oauth.authorizePage(ctx),
      ),
      r('POST', '/api/v1/authorize(?:\\.compact)?', 'POST /api/v1/authorize', 'www', (ctx) =>
        this.oauth.authorizeDecision(ctx),
      ),
      r('POST', '/api/v1/access_token', 'POST /api/v1/access_token', 'www', (ctx) =>
        this.oauth.accessToken(ctx),
      ),
      r('POST', '/api/v1/revoke_token', 'POST /api/v1/revoke_token', 'www', (ctx) => this.oauth.revoke(ctx)),

      r('GET', '/api/v1/me', 'GET /api/v1/me', 'oauth', (ctx) => json(200, userData(userOf(ctx))), {
        scope: 'identity',
        user: true,
      }),
      r('GET', `/r/${seg}/new`, 'GET /r/{sub}/new', 'oauth', (ctx) => subredditNew(c, ctx, 't3'), {
        scope: 'read',
      }),
      r('GET', `/r/${seg}/comments`, 'GET /r/{sub}/comments', 'oauth', (ctx) => subredditNew(c, ctx, 't1'), {
        scope: 'read',
      }),
      r('GET', `/r/${seg}/search`, 'GET /r/{sub}/search', 'oauth', (ctx) => search(c, ctx, ctx.params[0]), {
        scope: 'read',
      }),
      r('GET', `/r/${seg}/about`, 'GET /r/{sub}/about', 'oauth', (ctx) => subredditAbout(c, ctx), {
        scope: 'read',
      }),
      r('GET', '/search', 'GET /search', 'oauth', (ctx) => search(c, ctx), { scope: 'read' }),
      r('GET', '/subreddits/search', 'GET /subreddits/search', 'oauth', (ctx) => subredditSearch(c, ctx), {
        scope: 'read',
      }),
      r('GET', `/user/${seg}/about`, 'GET /user/{name}/about', 'oauth', (ctx) => userAbout(c, ctx), {
        scope: 'read',
      }),
      r(
        'GET',
        `/user/${seg}/submitted`,
        'GET /user/{name}/submitted',
        'oauth',
        (ctx) => userItems(c, ctx, 't3'),
        {
          scope: 'history',
        },
      ),
      r(
        'GET',
        `/user/${seg}/comments`,
        'GET /user/{name}/comments',
        'oauth',
        (ctx) => userItems(c, ctx, 't1'),
        {
          scope: 'history',
        },
      ),
      r('GET', '/api/info', 'GET /api/info', 'oauth', (ctx) => info(c, ctx), { scope: 'read' }),
      r(
        'POST',
        '/api/compose',
        'POST /api/compose',
        'oauth',
        (ctx) => this.messages.compose(ctx, userOf(ctx)),
        {
          scope: 'privatemessages',
          user: true,
        },
      ),
      r(
        'GET',
        '/message/(inbox|sent|unread|messages)',
        'GET /message/{where}',
        'oauth',
        (ctx) => {
          const where = (ctx.params[0] ?? 'inbox').toLowerCase();
          const box =
            where === 'sent'
              ? 'sent'
              : where === 'unread'
                ? 'unread'
                : where === 'messages'
                  ? 'messages'
                  : 'inbox';
          return this.messages.list(ctx, userOf(ctx), box);
        },
        { scope: 'privatemessages', user: true },
      ),
      r(
        'POST',
        '/api/(read|unread)_message',
        'POST /api/read_message',
        'oauth',
        (ctx) => this.messages.mark(ctx, userOf(ctx), ctx.params[0]?.toLowerCase() === 'read'),
        { scope: 'privatemessages', user: true },
      ),
      r(
        'GET',
        `/r/${seg}/comments/([0-9a-z]+)(?:/[^/]*)?(?:/([0-9a-z]+))?`,
        'GET /r/{sub}/comments/{id}',
        'www',
        (ctx) => postPage(c, ctx),
      ),
      r('GET', `/(?:user|u)/${seg}`, 'GET /user/{name}', 'www', (ctx) => userPage(c, ctx)),
    ];
  }

  /** Node request handler: Reddit's www and oauth surfaces plus the /__sim inspection API. */
  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://sim.local');
    let path = url.pathname.replace(/\.json$/i, '');
    if (path.length > 1) path = path.replace(/\/+$/, '');
    const method = (req.method ?? 'GET').toUpperCase();
    let raw: string;
    try {
      raw = await readBody(req);
    } catch {
      send(res, redditError(413));
      return;
    }
    if (path === '/__sim' || path.startsWith('/__sim/')) {
      send(res, this.handleInspect(method, path, url.searchParams, raw));
      return;
    }

    const now = this.clock.now();
    const isForm = !(req.headers['content-type'] ?? '').includes('application/json');
    const form = new URLSearchParams(isForm ? raw : '');
    const route = this.routes.find((rt) => rt.method === method && rt.pattern.test(path));
    const params = route
      ? (route.pattern.exec(path)?.slice(1) ?? []).map((p) => (p === undefined ? '' : decodeURIComponent(p)))
      : [];
    const token: AccessToken | undefined = this.oauth.verifyBearer(req.headers.authorization, now);
    const clientId =
      token?.clientId ??
      this.oauth.basicClientId(req.headers.authorization) ??
      url.searchParams.get('client_id') ??
      form.get('client_id') ??
      undefined;
    const entry: RequestLogEntry = {
      at: now,
      clientId: clientId ?? null,
      user: token?.user?.name ?? null,
      method,
      path,
      endpoint: route?.endpoint ?? `${method} ${path}`,
      status: 0,
      surface: route?.surface ?? null,
    };
    const finish = (response: SimResponse, headers: Record<string, string> = {}) => {
      entry.status = response.status;
      this.requestLog.add(entry);
      const rawJson = url.searchParams.get('raw_json') === '1';
      const body = rawJson ? response.body : legacyEscape(response.body);
      send(res, { ...response, body, headers: { ...headers, ...response.headers } });
    };

    if (isGenericUserAgent(req.headers['user-agent'])) return finish(redditError(403));
    if (!route) return finish(redditError(404));

    let rateHeaders: Record<string, string> = {};
    if (route.surface === 'oauth') {
      if (!token) {
        return finish(redditError(401), {
          'www-authenticate': 'Bearer realm="reddit", error="invalid_token"',
        });
      }
      const decision = this.rateLimiter.take(token.clientId, now);
      rateHeaders = decision.headers;
      if (!decision.allowed) return finish(redditError(429), rateHeaders);
    }

    const fault = this.faults.evaluate(method, path, clientId);
    if (fault.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, fault.latencyMs));
    const action = fault.action;
    if (action?.kind === 'status') return finish(redditError(action.status), rateHeaders);
    if (action?.kind === 'rate-limit') {
      return finish(redditError(429), {
        ...rateHeaders,
        'x-ratelimit-remaining': '0.0',
        'x-ratelimit-reset': String(action.retryAfter),
        'retry-after': String(action.retryAfter),
      });
    }

    if (token && route.scope && !hasScope(token, route.scope)) {
      return finish(redditError(403), {
        ...rateHeaders,
        'www-authenticate': `Bearer realm="reddit", error="insufficient_scope", scope="${route.scope}"`,
      });
    }
    if (route.user && !token?.user) return finish(redditError(403), rateHeaders);

    let jsonBody: unknown;
    if (!isForm && raw) {
      try {
        jsonBody = JSON.parse(raw);
      } catch {
        return finish(redditError(400), rateHeaders);
      }
    }
    const ctx: RouteContext = {
      method,
      path,
      params,
      query: url.searchParams,
      form,
      json: jsonBody,
      headers: req.headers,
      now,
      token,
      clientId,
    };
    const response = route.handle(ctx);
    if (action?.kind === 'reset') {
      entry.status = 0;
      this.requestLog.add(entry);
      req.socket.destroy();
      return;
    }
    finish(response, rateHeaders);
  }

  // ---- inspection -------------------------------------------------------------------------

  inspectMessages(filter?: { to?: string; from?: string }): StoredMessage[] {
    const eq = (a: string, b?: string) => b === undefined || a.toLowerCase() === b.toLowerCase();
    return this.messages.composed().filter((m) => eq(m.to, filter?.to) && eq(m.from, filter?.from));
  }

  messagesByRecipient(): Record<string, StoredMessage[]> {
    const out: Record<string, StoredMessage[]> = {};
    for (const m of this.messages.composed()) (out[m.to] ??= []).push(m);
    return out;
  }

  /** Simulated replies already delivered at the current sim time. */
  deliveredReplies(): StoredMessage[] {
    const now = this.clock.now();
    return this.messages.replies().filter((m) => m.createdMs <= now);
  }

  requestCounts(): Record<string, ClientCounts & { maxInAnyMinute: number }> {
    const counts = this.requestLog.countsByClient();
    return Object.fromEntries(
      Object.entries(counts).map(([id, c]) => [
        id,
        { ...c, maxInAnyMinute: this.requestLog.maxInWindow(id) },
      ]),
    );
  }

  reset(what: { messages?: boolean; faults?: boolean } = {}): void {
    this.requestLog.reset();
    this.rateLimiter.reset();
    if (what.messages) this.messages.clear();
    if (what.faults) this.faults.clear();
  }

  private handleInspect(method: string, path: string, query: URLSearchParams, raw: string): SimResponse {
    let body: Record<string, unknown> = {};
    if (raw) {
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        return json(400, { error: 'body must be JSON' });
      }
    }
    const q = (k: string) => query.get(k) ?? undefined;
    const key = `${method} ${path}`;
    try {
      switch (key) {
        case 'GET /__sim':
          return json(200, {
            endpoints: [
              'GET /__sim/messages?to=&from=',
              'GET /__sim/replies',
              'POST /__sim/replies {from, to, kind?, body?}',
              'GET /__sim/requests?clientId=&endpoint=',
              'GET /__sim/requests/counts',
              'GET|POST|DELETE /__sim/faults, DELETE /__sim/faults/{id}',
              'GET /__sim/clock, POST /__sim/clock/advance {ms}',
              'POST /__sim/reset {messages?, faults?}',
              'GET|POST /__sim/clients',
              'GET /__sim/accounts',
              'POST /__sim/accounts {name, age_days?, link_karma?, comment_karma?}',
              'GET /__sim/users/{name}',
              'GET /__sim/corpus',
            ],
          });
        case 'GET /__sim/messages':
          return json(200, {
            messages: this.inspectMessages({ to: q('to'), from: q('from') }),
            byRecipient: this.messagesByRecipient(),
          });
        case 'GET /__sim/replies':
          return json(200, { replies: this.deliveredReplies() });
        case 'POST /__sim/replies': {
          const { from, to, kind, body: text } = body;
          if (typeof from !== 'string' || typeof to !== 'string') {
            return json(400, { error: 'from (who answers) and to (who wrote to them) are required' });
          }
          if (kind !== undefined && kind !== 'stop' && kind !== 'interested' && kind !== 'neutral') {
            return json(400, { error: 'kind is one of stop, interested, neutral' });
          }
          if (text !== undefined && (typeof text !== 'string' || !text.trim())) {
            return json(400, { error: 'body must be a non-empty string' });
          }
          const reply = this.messages.answerNow(from, to, this.clock.now(), { kind, body: text });
          return reply ? json(201, { reply }) : json(404, { error: `${to} sent no message to ${from}` });
        }
        case 'GET /__sim/requests':
          return json(200, {
            requests: this.requestLog.list({ clientId: q('clientId'), endpoint: q('endpoint') }),
          });
        case 'GET /__sim/requests/counts':
          return json(200, { counts: this.requestCounts() });
        case 'GET /__sim/faults':
          return json(200, { faults: this.faults.list() });
        case 'POST /__sim/faults':
          return json(201, { id: this.faults.add(body as unknown as FaultSpec) });
        case 'DELETE /__sim/faults':
          this.faults.clear();
          return json(200, { faults: [] as Fault[] });
        case 'GET /__sim/clock':
          return json(200, { now: this.clock.now(), internal: this.clock.internal });
        case 'POST /__sim/clock/advance':
          if (!this.clock.internal) return json(409, { error: 'the simulator was given its own clock' });
          this.clock.advance(Number(body.ms ?? q('ms') ?? 0));
          return json(200, { now: this.clock.now() });
        case 'POST /__sim/reset':
          this.reset({ messages: body.messages === true, faults: body.faults === true });
          return json(200, { ok: true });
        case 'GET /__sim/clients':
          return json(200, { clients: this.oauth.listClients() });
        case 'POST /__sim/clients':
          this.registerClient(body as unknown as ClientRegistration);
          return json(201, { ok: true });
        case 'GET /__sim/accounts':
          return json(200, {
            accounts: this.corpus.users
              .loginAccounts()
              .map((u) => ({ ...userData(u), description: u.description })),
          });
        case 'POST /__sim/accounts': {
          const name = typeof body.name === 'string' ? body.name : '';
          if (!/^[A-Za-z0-9_-]{3,20}$/.test(name)) {
            return json(400, { error: 'name must be 3 to 20 letters, digits, _ or -' });
          }
          const whole = (v: unknown, fallback: number) =>
            typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : fallback;
          try {
            const user = this.corpus.users.addLoginAccount(
              {
                name,
                ageDays: whole(body.age_days, 420),
                linkKarma: whole(body.link_karma, 1250),
                commentKarma: whole(body.comment_karma, 3400),
              },
              this.clock.now(),
            );
            return json(201, { ...userData(user), description: user.description });
          } catch (error) {
            return json(409, { error: (error as Error).message });
          }
        }
        case 'GET /__sim/corpus':
          return json(200, {
            seed: this.corpus.seed,
            topics: [...new Set(this.corpus.subreddits.map((s) => s.topic.label))],
            subreddits: this.corpus.subreddits.map((s) => ({
              name: s.name,
              topic: s.topic.id,
              subscribers: s.subscribers,
              postsPerDay: Math.round(86_400_000 / s.postIntervalMs),
            })),
          });
      }
      const userMatch = /^GET \/__sim\/users\/([^/]+)$/.exec(key);
      if (userMatch?.[1]) {
        const user = this.corpus.users.get(decodeURIComponent(userMatch[1]));
        if (!user) return json(404, { error: 'no such user' });
        // What a sender cannot see through the API: whether a DM to them would be refused.
        const { deleted, suspended, refusesDms, loginable } = user;
        return json(200, { user: { name: user.name, deleted, suspended, refusesDms, loginable } });
      }
      const faultMatch = /^DELETE \/__sim\/faults\/([^/]+)$/.exec(key);
      if (faultMatch?.[1]) {
        return this.faults.remove(faultMatch[1])
          ? json(200, { ok: true })
          : json(404, { error: 'no such fault' });
      }
    } catch (error) {
      return json(400, { error: error instanceof Error ? error.message : String(error) });
    }
    return json(404, { error: `no inspection endpoint ${key}` });
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > 1_000_000) {
        reject(new Error('body too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, response: SimResponse): void {
  if (res.writableEnded || res.destroyed) return;
  const headers: Record<string, string> = { ...response.headers };
  let payload = '';
  if (typeof response.body === 'string') {
    payload = response.body;
    headers['content-type'] = response.contentType ?? 'text/html; charset=utf-8';
  } else if (response.body !== undefined) {
    payload = JSON.stringify(response.body);
    headers['content-type'] = 'application/json; charset=UTF-8';
  }
  res.writeHead(response.status, headers);
  res.end(payload);
}
