import { z } from 'zod';

/** One entry of `json.errors`: `[CODE, message, field]`; the field is null when the error has none. */
export const ZRedditJsonError = z.tuple([z.string(), z.string(), z.string().nullable().optional()]);
export type TRedditJsonError = z.infer<typeof ZRedditJsonError>;

/**
 * The `api_type=json` envelope of Reddit's write endpoints (`POST /api/compose`): errors come back with
 * HTTP 200 inside `json.errors`; a rate-limited sender also gets `json.ratelimit` in seconds.
 */
export const ZRedditJsonResponse = z.looseObject({
  json: z.looseObject({
    errors: z.array(ZRedditJsonError),
    data: z.unknown().optional(),
    ratelimit: z.number().optional(),
  }),
});
export type TRedditJsonResponse = z.infer<typeof ZRedditJsonResponse>;

/** An empty object: what `POST /api/read_message` answers. */
export const ZRedditEmptyResponse = z.looseObject({});

/** The common error body: `{"message":"Forbidden","error":403}`, with a `reason` such as "quarantined". */
export const ZRedditStatusError = z.looseObject({
  message: z.string(),
  error: z.number(),
  reason: z.string().optional(),
});

/** A refused parameter: `{"fields":["id"],"explanation":"that user doesn't exist","reason":"USER_DOESNT_EXIST"}`. */
export const ZRedditFieldError = z.looseObject({
  reason: z.string(),
  explanation: z.string(),
  fields: z.array(z.string()).optional(),
});

/** OAuth's error body: `{"error":"invalid_grant"}`. */
export const ZRedditOAuthError = z.looseObject({
  error: z.string(),
  message: z.string().optional(),
});

/** Every error body Reddit answers a 4xx with. */
export const ZRedditErrorBody = z.union([ZRedditStatusError, ZRedditFieldError, ZRedditOAuthError]);
export type TRedditErrorBody = z.infer<typeof ZRedditErrorBody>;

/** The machine-readable reason of an error body, e.g. USER_DOESNT_EXIST, quarantined or invalid_grant. */
export function redditErrorReason(body: TRedditErrorBody): string | null {
  if (typeof body.reason === 'string') return body.reason;
  if (typeof body.error === 'string') return body.error;
  return null;
}
