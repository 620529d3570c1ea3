import { z } from 'zod';

/** Every error response of the API. */
export const ZErrorResponse = z
  .object({
    detail: z.string(),
    code: z.string(),
  })
  .meta({ id: 'ErrorResponse' });
export type TErrorResponse = z.infer<typeof ZErrorResponse>;

export const PAGE_LIMIT_DEFAULT = 100;
export const PAGE_LIMIT_MAX = 500;

/**
 * A whole number from `min` to `max` in a query parameter: decimal digits only, so '', ' 1', '0x10' and
 * '1e3' are refused with `error` rather than read as 0, 1, 16 and 1000. A number is taken as it is.
 */
export function ZQueryInt(min: number, max: number, error: string, missing = error) {
  const why = { error: (issue: { input?: unknown }) => (issue.input === undefined ? missing : error) };
  return z
    .union([z.number(why), z.string(why).regex(/^-?\d{1,16}$/, why)], why)
    .transform(Number)
    .pipe(z.number().int({ error }).min(min, { error }).max(max, { error }));
}

/** A page's `limit` query parameter: 1 to `max`, `fallback` when left out. */
export function ZLimit(max: number, fallback: number) {
  return ZQueryInt(1, max, `limit must be a whole number from 1 to ${max}`).default(fallback);
}

/** A page's `offset` query parameter: 0 or more, up to `max`. */
export function ZOffset(max = Number.MAX_SAFE_INTEGER) {
  const error =
    max === Number.MAX_SAFE_INTEGER
      ? 'offset must be a whole number, 0 or more'
      : `offset must be a whole number from 0 to ${max}`;
  return ZQueryInt(0, max, error).default(0);
}

/** Query of every paginated list. */
export const ZPageQuery = z.object({
  limit: ZLimit(PAGE_LIMIT_MAX, PAGE_LIMIT_DEFAULT),
  offset: ZOffset(),
});
export type TPageQuery = z.infer<typeof ZPageQuery>;

/** Envelope of every paginated list: one page of items and the total across pages. */
export function ZPage<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    total: z.number().int(),
    limit: z.number().int(),
    offset: z.number().int(),
  });
}
export interface TPage<T> {
  items: T[];
  total: number;
  limit: number;
  offset: number;
}

export const ZUuid = z.uuid();

/**
 * NUL (U+0000) and the control characters other than tab and line breaks: PostgreSQL cannot store NUL,
 * and none of them belongs in text a person typed.
 */
// eslint-disable-next-line no-control-regex -- the point is to find control characters
const CONTROL_CHARACTERS = new RegExp('^[^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F]*$');
export const CONTROL_CHARACTERS_MESSAGE = 'Invalid text: NUL and control characters are not allowed';

/** "1 post", "2 posts": a count and its noun, which takes an s unless the count is one. */
export function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** True when a value holds NUL or another control character the text type refuses. */
export function hasControlCharacters(value: string): boolean {
  return !CONTROL_CHARACTERS.test(value);
}

/**
 * Text that may reach the database: every text field, path parameter and query string of the API uses
 * it, so a NUL or control character is a 400 instead of a failed query.
 */
export function ZText(options?: Parameters<typeof z.string>[0]) {
  return z.string(options).regex(CONTROL_CHARACTERS, { error: CONTROL_CHARACTERS_MESSAGE });
}
export const ZIsoDateTime = z.string().meta({ format: 'date-time' });

/**
 * The years a date the API is asked about may fall in: nothing the product records is older, and the
 * database's calendar arithmetic (a day or an hour either side) stays inside what it can write.
 */
export const QUERY_YEARS = { first: 2000, last: 2100 } as const;
export const QUERY_YEARS_TEXT = `between ${QUERY_YEARS.first} and ${QUERY_YEARS.last}`;

/** Whether a date or date-time written with its 4-digit year first falls in QUERY_YEARS. */
export function inQueryYears(value: string): boolean {
  const year = Number(value.slice(0, 4));
  return year >= QUERY_YEARS.first && year <= QUERY_YEARS.last;
}

export const ZMessageResponse = z.object({ message: z.string() });
export type TMessageResponse = z.infer<typeof ZMessageResponse>;
