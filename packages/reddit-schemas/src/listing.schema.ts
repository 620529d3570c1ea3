import { z } from 'zod';

/** `{kind, data}`: how Reddit wraps every object it sends (t1 comment, t2 account, t3 post, t4 message, t5 subreddit). */
export function zRedditThing<K extends string, D extends z.ZodType>(kind: K, data: D) {
  return z.looseObject({ kind: z.literal(kind), data });
}

/**
 * A page of things. Older answers have no `dist` or `geo_filter` and `modhash` is `""` or null, so only
 * the cursors and the children are required.
 */
export function zRedditListing<C extends z.ZodType>(child: C) {
  return z.looseObject({
    kind: z.literal('Listing'),
    data: z.looseObject({
      after: z.string().nullable(),
      before: z.string().nullable(),
      children: z.array(child),
    }),
  });
}

export type TRedditThing<K extends string, D> = z.infer<ReturnType<typeof zRedditThing<K, z.ZodType<D>>>>;
export type TRedditListing<C> = z.infer<ReturnType<typeof zRedditListing<z.ZodType<C>>>>;
