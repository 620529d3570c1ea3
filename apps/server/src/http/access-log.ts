import { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';
import { redactUrl } from './logger';

/** The logger name of the access lines (the /logs filter's `uvicorn.access`). */
export const ACCESS_LOGGER_NAME = 'http.access';

/**
 * Fastify's request lines as one access line per request (instead of an "incoming request" and a "request
 * completed" line), under its own logger name, credentials in the query string redacted.
 */
export class AccessLogController extends LogController {
  private readonly access: FastifyBaseLogger;

  constructor(log: FastifyBaseLogger) {
    super();
    this.access = log.child({ name: ACCESS_LOGGER_NAME });
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
    else this.access.info(fields, message);
  }
}
