import { z } from 'zod';

/** `POST /api/v1/access_token` granted. Tokens now last 86400 s (older answers 3600): read `expires_in`. */
export const ZRedditAccessToken = z.looseObject({
  access_token: z.string().min(1),
  token_type: z.string(),
  expires_in: z.number().positive(),
  scope: z.string(),
  refresh_token: z.string().optional(),
});
export type TRedditAccessToken = z.infer<typeof ZRedditAccessToken>;

/** A refused grant: Reddit answers `{"error":"invalid_grant"}`, sometimes with HTTP 200. */
export const ZRedditTokenRefusal = z.looseObject({ error: z.string() });
export type TRedditTokenRefusal = z.infer<typeof ZRedditTokenRefusal>;

export const ZRedditAccessTokenResponse = z.union([ZRedditAccessToken, ZRedditTokenRefusal]);
export type TRedditAccessTokenResponse = z.infer<typeof ZRedditAccessTokenResponse>;
