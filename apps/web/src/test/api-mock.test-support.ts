import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import {
  endpointKey,
  successSchema,
  type TEndpoint,
  type TEndpointInput,
  type TEndpointResult,
  type TErrorResponse,
} from '@threadreach/contract';

/**
 * The API as web tests see it. Each test answers the endpoints it needs with `mockEndpoint`; a request
 * no handler answers, or one its contract refuses, fails the test (see `takeApiProblems`).
 */
export const apiServer = setupServer();

export interface TSentRequest {
  method: string;
  url: URL;
}

const sent: TSentRequest[] = [];
const problems: string[] = [];
/** Requests whose handler has not been chosen yet: a finished test waits for them to be judged. */
const undecided = new Set<string>();

/** Requests sent and not yet answered. */
const inFlight = new Set<string>();

apiServer.events.on('request:start', ({ request, requestId }) => {
  undecided.add(requestId);
  inFlight.add(requestId);
  sent.push({ method: request.method, url: new URL(request.url) });
});
apiServer.events.on('request:match', ({ requestId }) => {
  undecided.delete(requestId);
});
apiServer.events.on('request:unhandled', ({ request, requestId }) => {
  undecided.delete(requestId);
  problems.push(`No handler for ${request.method} ${new URL(request.url).pathname}`);
});

apiServer.events.on('request:end', ({ requestId }) => {
  inFlight.delete(requestId);
});

/** How many requests the app sent that are not answered yet. */
export function requestsInFlight(): number {
  return inFlight.size;
}

/** Every request the app sent in this test, answered or not, in order. */
export function sentRequests(): readonly TSentRequest[] {
  return sent;
}

/**
 * Forgets this test's requests and handlers, and returns what went wrong in it. Requests still being
 * matched are judged first, so a late one is reported by its own test rather than the next.
 */
export async function takeApiProblems(): Promise<string[]> {
  for (let turn = 0; (turn < 10 || undecided.size > 0) && turn < 100; turn++) {
    await new Promise((resolve) => setImmediate(resolve));
  }
  undecided.clear();
  inFlight.clear();
  apiServer.resetHandlers();
  sent.length = 0;
  return problems.splice(0);
}

const ERROR_REPLY = Symbol('error reply');

/** An error answer in the API's `{ detail, code }` envelope. */
export interface TErrorReply {
  [ERROR_REPLY]: true;
  status: number;
  body: TErrorResponse & Record<string, unknown>;
}

/** Answers with an error status and the envelope; `extra` adds the fields some errors carry. */
export function errorReply(
  status: number,
  detail: string,
  code: string,
  extra: Record<string, unknown> = {},
): TErrorReply {
  return { [ERROR_REPLY]: true, status, body: { ...extra, detail, code } };
}

function isErrorReply(value: unknown): value is TErrorReply {
  return typeof value === 'object' && value !== null && ERROR_REPLY in value;
}

/**
 * What a handler answers: the endpoint's success body (sent with its success status), an error
 * reply, or a raw Response for what the contract cannot express (an empty 503, a network error).
 */
export type TAnswer<E extends TEndpoint> = TEndpointResult<E> | TErrorReply | Response;

/** A request as its handler sees it: the contract-parsed params, query and body, and the raw request. */
export type TMockRequest<E extends TEndpoint> = TEndpointInput<E> & { request: Request };

export type TMockHandler<E extends TEndpoint> = (req: TMockRequest<E>) => TAnswer<E> | Promise<TAnswer<E>>;

/** One request an endpoint received; `body` is the JSON as sent, `params`/`query` as parsed. */
export type TRecordedCall<E extends TEndpoint> = TMockRequest<E> & {
  url: URL;
  headers: Headers;
  rawBody: unknown;
};

export interface TMockedEndpoint<E extends TEndpoint> {
  calls: TRecordedCall<E>[];
}

function queryObject(params: URLSearchParams): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key);
    query[key] = values.length === 1 ? values[0]! : values;
  }
  return query;
}

async function readBody(request: Request): Promise<unknown> {
  const text = await request.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

interface TParsed {
  input: { params: unknown; query: unknown; body: unknown };
  errors: string[];
}

function parsePart(
  part: 'params' | 'query' | 'body',
  schema: TEndpoint['params' | 'query' | 'body'],
  value: unknown,
  parsed: TParsed,
): void {
  if (!schema) {
    if (part === 'body' && value !== undefined) parsed.errors.push('a body its contract does not declare');
    return;
  }
  const result = schema.safeParse(value);
  if (result.success) parsed.input[part] = result.data;
  else parsed.errors.push(`${part}: ${result.error.issues.map((i) => i.message).join('; ')}`);
}

function toResponse(endpoint: TEndpoint, answer: unknown): Response {
  if (answer instanceof Response) return answer;
  if (isErrorReply(answer)) return HttpResponse.json(answer.body, { status: answer.status });
  const { status, schema } = successSchema(endpoint);
  if (schema === null) return new HttpResponse(null, { status });
  return new HttpResponse(JSON.stringify(answer), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

function isHandler<E extends TEndpoint>(answer: TMockHandler<E> | TAnswer<E>): answer is TMockHandler<E> {
  return typeof answer === 'function';
}

/**
 * Answers `endpoint` for the rest of the test (a later mock of the same endpoint wins). The request
 * is checked against the contract the way the server checks it; a refused one fails the test.
 */
export function mockEndpoint<E extends TEndpoint>(
  endpoint: E,
  answer: TMockHandler<E> | TAnswer<E>,
): TMockedEndpoint<E> {
  const mocked: TMockedEndpoint<E> = { calls: [] };
  const method = endpoint.method.toLowerCase() as Lowercase<TEndpoint['method']>;
  apiServer.use(
    http[method](`${window.location.origin}${endpoint.path}`, async ({ request, params }) => {
      const url = new URL(request.url);
      const rawBody = await readBody(request.clone());
      const parsed: TParsed = { input: { params: undefined, query: undefined, body: undefined }, errors: [] };
      parsePart('params', endpoint.params, params, parsed);
      parsePart('query', endpoint.query, queryObject(url.searchParams), parsed);
      parsePart('body', endpoint.body, rawBody, parsed);
      if (parsed.errors.length > 0) {
        const detail = `${endpointKey(endpoint)} was sent ${parsed.errors.join(', ')}`;
        problems.push(detail);
        return HttpResponse.json({ detail, code: 'validation_error' }, { status: 400 });
      }
      // The schemas just produced these values, so they have the endpoint's input types.
      const req = { ...(parsed.input as TEndpointInput<E>), request };
      mocked.calls.push({ ...req, url, headers: request.headers, rawBody });
      return toResponse(endpoint, isHandler(answer) ? await answer(req) : answer);
    }),
  );
  return mocked;
}
