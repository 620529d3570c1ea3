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
  /** DM_EXPIRY_DAYS: DMs expire unsent this many days after their post or comment. */
  dm_expiry_days: z.number().int(),
});
export type TPublicConfig = z.infer<typeof ZPublicConfig>;
