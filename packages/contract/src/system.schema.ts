import { z } from 'zod';

export const ZHealthResponse = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.object({ ok: z.boolean(), driver: z.enum(['pglite', 'postgres']) }),
  queue: z.object({ ok: z.boolean() }),
});
export type THealthResponse = z.infer<typeof ZHealthResponse>;

/** What the web app needs to know about the deployment before sign-in. */
export const ZPublicConfig = z.object({
  demo_mode: z.boolean(),
  main_app_url: z.string().nullable(),
  support_chat_script_url: z.string().nullable(),
  /** Where Reddit's pages are: www.reddit.com, or the simulator's own pages in the demo. */
  reddit_web_url: z.string(),
});
export type TPublicConfig = z.infer<typeof ZPublicConfig>;
