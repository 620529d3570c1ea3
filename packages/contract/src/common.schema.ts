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

/** Query of every paginated list. */
export const ZPageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(PAGE_LIMIT_MAX).default(PAGE_LIMIT_DEFAULT),
  offset: z.coerce.number().int().min(0).default(0),
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
export const ZIsoDateTime = z.string().meta({ format: 'date-time' });

export const ZMessageResponse = z.object({ message: z.string() });
export type TMessageResponse = z.infer<typeof ZMessageResponse>;
