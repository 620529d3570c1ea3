import type { FastifyInstance } from 'fastify';
import { AppError } from './errors';

/** Deeper than any body the API takes; a deeper one only serves to exhaust the stack of what reads it. */
export const JSON_BODY_MAX_DEPTH = 32;

// A \uD800-\uDFFF escape: only then can the parsed text hold a lone surrogate, which jsonb refuses.
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

type Parsed = null | boolean | number | string | Parsed[] | { [key: string]: Parsed };

/**
 * Fastify's JSON parser (with its refusal of __proto__ and constructor keys), then a refusal of bodies
 * nested too deep and of text that is not Unicode (a lone surrogate escape): both used to reach a schema
 * refine or the database and come back as a 500.
 */
export function registerJsonBody(app: FastifyInstance) {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    parse(request, text, (error: Error | null, value?: unknown) => {
      if (error) return done(error);
      const problem = refusal(value as Parsed, 0, SURROGATE_ESCAPE.test(text));
      if (problem) return done(new AppError(400, 'invalid_json', problem));
      done(null, value);
    });
  });
}

function refusal(value: Parsed, depth: number, checkText: boolean): string | null {
  if (typeof value === 'string') {
    return checkText && !isWellFormed(value) ? NOT_TEXT : null;
  }
  if (value === null || typeof value !== 'object') return null;
  if (depth >= JSON_BODY_MAX_DEPTH) {
    return `Request body nests deeper than ${JSON_BODY_MAX_DEPTH} levels of objects and arrays.`;
  }
  if (Array.isArray(value)) {
    for (const item of value) {
      const problem = refusal(item, depth + 1, checkText);
      if (problem) return problem;
    }
    return null;
  }
  for (const key in value) {
    if (checkText && !isWellFormed(key)) return NOT_TEXT;
    const problem = refusal(value[key]!, depth + 1, checkText);
    if (problem) return problem;
  }
  return null;
}

const NOT_TEXT = 'Request body holds a lone surrogate escape (\\uD800 to \\uDFFF), which is not valid text.';

// String.prototype.isWellFormed is Node 20+, newer than the ES2023 library the code is typed with.
const isWellFormed = (text: string): boolean => (text as string & { isWellFormed(): boolean }).isWellFormed();
