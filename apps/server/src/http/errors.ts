import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { PROJECT_NOT_FOUND } from '@threadreach/contract';

/** A failure with the status, machine code and human detail the client sees. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    readonly detail: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(detail);
    this.name = 'AppError';
  }
}

export const notFound = (detail = 'Not found') => new AppError(404, 'not_found', detail);
export const projectNotFound = () => notFound(PROJECT_NOT_FOUND);
export const unauthorized = (detail = 'Authentication required.') =>
  new AppError(401, 'unauthorized', detail);
export const forbidden = (detail: string, code = 'forbidden') => new AppError(403, code, detail);
export const badRequest = (detail: string, code = 'bad_request') => new AppError(400, code, detail);

interface Issue {
  path: PropertyKey[];
  message: string;
}

/** zod's refusal of fields an object does not declare. */
const UNKNOWN_KEYS = /^Unrecognized keys?: (.+)$/;

function describeIssue(where: string, issue: Issue): string {
  const unknown = UNKNOWN_KEYS.exec(issue.message);
  if (unknown) {
    const place = [where, ...issue.path.map(String)].filter(Boolean).join('.') || 'request';
    const plural = unknown[1]!.includes(',') ? 's' : '';
    return `Unknown field${plural} in the ${place}: ${unknown[1]}`;
  }
  // Messages written for people already name their field; zod's generic ones need the path.
  if (!issue.message.startsWith('Invalid') && !issue.message.startsWith('Too ') && issue.path.length) {
    return issue.message;
  }
  const location = [where, ...issue.path.map(String)].filter(Boolean).join('.');
  return location ? `${location}: ${issue.message}` : issue.message;
}

/** Refusals of a request body by the parsers, before any route runs. */
const BODY_ERRORS: Record<string, { detail: string; code: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { detail: 'The request body is too large.', code: 'body_too_large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    detail: 'This content type is not accepted here.',
    code: 'unsupported_media_type',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    detail: 'The request body does not match its Content-Length.',
    code: 'bad_request',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: { detail: 'Request body is not valid JSON', code: 'invalid_json' },
  FST_ERR_CTP_INVALID_JSON_BODY: { detail: 'Request body is not valid JSON', code: 'invalid_json' },
};

/** How much of a refused body is still read, and for how long, before its connection is dropped. */
export const REFUSED_BODY_DRAIN_BYTES = 16 * 1024 * 1024;
export const REFUSED_BODY_DRAIN_MS = 10_000;

/**
 * Fastify closes the connection after a 413 while the client is still sending the body. Unread bytes
 * make the close a reset, and a client that meets it before reading the answer sees a broken
 * connection instead of the 413 (RFC 9112 §9.6). So the rest of the body is read and dropped, up to a
 * bound, and the connection kept; past the bound it is dropped.
 */
function keepReadingRefusedBody(raw: IncomingMessage, reply: FastifyReply) {
  if (raw.complete) return;
  reply.removeHeader('connection');
  let read = 0;
  const drop = () => {
    clearTimeout(timer);
    raw.socket?.destroy();
  };
  const timer = setTimeout(drop, REFUSED_BODY_DRAIN_MS).unref();
  raw.on('data', (chunk: Buffer) => {
    read += chunk.length;
    if (read > REFUSED_BODY_DRAIN_BYTES) drop();
  });
  raw.once('end', () => clearTimeout(timer));
  raw.once('close', () => clearTimeout(timer));
}

/** Every error leaves as JSON `{detail, code}`; bad input is a 4xx, never a 500. */
export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      return reply.status(error.statusCode).send({ detail: error.detail, code: error.code, ...error.extra });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const where = error.validationContext ?? '';
      const issues = error.validation.map((v) => ({
        path: (v.instancePath || '').split('/').filter(Boolean),
        message: v.message ?? 'Invalid value',
      }));
      const described = issues.map((i) => describeIssue(where, i));
      return reply.status(400).send({
        // One reason once, however many values gave it (working_days [0, 8, 8]).
        detail: [...new Set(described)].join('; '),
        code: 'validation_error',
        errors: issues.map((i, n) => ({
          path: i.path.join('.'),
          message: UNKNOWN_KEYS.test(i.message) ? described[n] : i.message,
        })),
      });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, issues: error.cause.issues }, 'response did not match its schema');
      return reply.status(500).send({ detail: 'Internal server error', code: 'internal' });
    }
    const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 400 && status < 500) {
      const known =
        (error.code ? BODY_ERRORS[error.code] : undefined) ??
        (error instanceof SyntaxError ? BODY_ERRORS.FST_ERR_CTP_INVALID_JSON_BODY : undefined);
      if (known) {
        if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') keepReadingRefusedBody(request.raw, reply);
        return reply.status(status).send(known);
      }
      return reply
        .status(status)
        .send({ detail: error.message, code: (error.code ?? 'bad_request').toLowerCase() });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ detail: 'Internal server error', code: 'internal' });
  });
}

/**
 * Errors Fastify answers before a route is found (a bad URL encoding, a path parameter over the length
 * limit): the same `{detail, code}` envelope as every other error.
 */
export function frameworkErrors(error: FastifyError, _request: unknown, reply: FastifyReply) {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return reply.status(414).send({ detail: 'A path parameter is too long.', code: 'uri_too_long' });
  }
  if (error.code === 'FST_ERR_BAD_URL') {
    return reply.status(400).send({ detail: 'The address is not valid URL encoding.', code: 'bad_url' });
  }
  return reply.status(400).send({ detail: 'The request could not be routed.', code: 'bad_request' });
}

const CLIENT_ERRORS: Record<string, { status: number; detail: string; code: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, detail: 'Request headers are too large.', code: 'headers_too_large' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, detail: 'The request took too long to arrive.', code: 'timeout' },
};

/** Malformed requests Node's HTTP parser refuses before Fastify sees them, answered in the envelope too. */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Duplex) {
  if (error.code === 'ECONNRESET' || socket.destroyed || !socket.writable) return;
  const known = (error.code && CLIENT_ERRORS[error.code]) || {
    status: 400,
    detail: 'The request is malformed.',
    code: 'bad_request',
  };
  const body = JSON.stringify({ detail: known.detail, code: known.code });
  socket.end(
    `HTTP/1.1 ${known.status} ${STATUS_CODES[known.status]}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
