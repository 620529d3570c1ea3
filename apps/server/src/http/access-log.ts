import { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';
import pino from 'pino';
import { redactSecrets, redactUrl, scrubSecrets } from './logger';

/** The logger name of the access lines (the /logs filter's `uvicorn.access`). */
export const ACCESS_LOGGER_NAME = 'http.access';

const INFO = 30;

/** What pino's own `write` sets on a destination that asks for it, beside each line. */
interface LineMetadata {
  lastLevel?: number;
  lastObj?: object;
  lastMsg?: string;
  lastTime?: string;
  lastLogger?: unknown;
}

/**
 * The parts of a pino logger its lines are made of, read through `pino.symbols`: the level's opening, the
 * time function, the bound fields as JSON, the ending and the destination.
 */
interface LineParts {
  opening: string;
  time: () => string;
  timeSlice: number;
  bindings: string;
  end: string;
  stream: pino.DestinationStream & LineMetadata;
  metadata: boolean;
}

/**
 * The parts of `logger`'s lines when they can be written without pino's generic path: configured as
 * `loggerOptions` configures it (its formatter redacts, no mixin, no stream hook, the message under
 * `msg`); null otherwise, and the line goes through pino.
 */
function lineParts(logger: FastifyBaseLogger): LineParts | null {
  const s = pino.symbols;
  const internals = logger as unknown as Record<symbol, unknown>;
  const formatters = internals[s.formattersSym] as { log?: unknown } | undefined;
  const hooks = internals[s.hooksSym] as { streamWrite?: unknown } | undefined;
  const opening = (internals[s.lsCacheSym] as Record<number, string> | undefined)?.[INFO];
  const stream = internals[s.streamSym] as LineParts['stream'] | undefined;
  if (
    formatters?.log !== redactSecrets ||
    internals[s.mixinSym] ||
    hooks?.streamWrite ||
    internals[s.messageKeySym] !== 'msg' ||
    typeof opening !== 'string' ||
    typeof internals[s.timeSym] !== 'function' ||
    typeof internals[s.chindingsSym] !== 'string' ||
    typeof internals[s.endSym] !== 'string' ||
    !stream
  ) {
    return null;
  }
  return {
    opening,
    time: internals[s.timeSym] as () => string,
    timeSlice: internals[s.timeSliceIndexSym] as number,
    bindings: internals[s.chindingsSym] as string,
    end: internals[s.endSym] as string,
    stream,
    metadata: (stream as unknown as Record<symbol, unknown>)[s.needsMetadataGsym] === true,
  };
}

/**
 * Fastify's request lines as one access line per request (instead of an "incoming request" and a "request
 * completed" line), under its own logger name, credentials in the query string redacted.
 *
 * The line of a request that succeeded, written on every request, is put together here the way pino would
 * (the access-log test holds the two equal, byte for byte): pino's generic path (its hooks, formatter,
 * serializer look-ups and escaping field by field) cost more than the rest of the line.
 */
export class AccessLogController extends LogController {
  private readonly access: FastifyBaseLogger;
  private readonly parts: LineParts | null;

  constructor(log: FastifyBaseLogger) {
    super();
    this.access = log.child({ name: ACCESS_LOGGER_NAME });
    this.parts = lineParts(this.access);
  }

  /** Whether the lines of requests that succeeded are put together here rather than by pino. */
  get writesDirectly(): boolean {
    return this.parts !== null;
  }

  override incomingRequest() {}

  override requestCompleted(error: Error | null, request: FastifyRequest, reply: FastifyReply) {
    const url = redactUrl(request.url);
    const responseTime = Math.round(reply.elapsedTime * 10) / 10;
    const fields = {
      reqId: request.id,
      method: request.method,
      url,
      statusCode: reply.statusCode,
      responseTime,
      remoteAddress: request.ip,
    };
    const message = `${request.method} ${url} ${reply.statusCode} ${responseTime}ms`;
    if (error) this.access.error({ ...fields, err: error }, message);
    else if (this.parts) {
      if ((this.access as pino.Logger).isLevelEnabled('info'))
        writeAccessLine(this.parts, this.access, fields, message);
    } else this.access.info(fields, message);
  }
}

type AccessFields = {
  reqId: string;
  method: string;
  url: string;
  statusCode: number;
  responseTime: number;
  remoteAddress: string | undefined;
};

/** What pino writes for a number: JSON's, and null for what JSON has no number for. */
const num = (n: number) => (Number.isFinite(n) ? String(n) : 'null');
const text = (value: string) => JSON.stringify(scrubSecrets(value));

/** The access line as `access.info(fields, message)` writes it, and the same metadata beside it. */
function writeAccessLine(
  parts: LineParts,
  logger: FastifyBaseLogger,
  fields: AccessFields,
  message: string,
): void {
  const time = parts.time();
  const msg = scrubSecrets(message);
  const line =
    `${parts.opening}${time}${parts.bindings},"reqId":${text(fields.reqId)},"method":${text(fields.method)}` +
    `,"url":${text(fields.url)},"statusCode":${num(fields.statusCode)},"responseTime":${num(fields.responseTime)}` +
    (fields.remoteAddress === undefined ? '' : `,"remoteAddress":${text(fields.remoteAddress)}`) +
    `,"msg":${JSON.stringify(msg)}${parts.end}`;
  const { stream } = parts;
  if (parts.metadata) {
    stream.lastLevel = INFO;
    stream.lastObj = fields;
    stream.lastMsg = msg;
    stream.lastTime = time.slice(parts.timeSlice);
    stream.lastLogger = logger;
  }
  stream.write(line);
}
