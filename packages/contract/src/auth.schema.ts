import { z } from 'zod';
import { ZIsoDateTime, ZText } from './common.schema';

export const TOKEN_TYPE_ACCESS = 'access';

/**
 * A cookie the page can read, set and cleared with the httpOnly refresh cookie and holding nothing but '1':
 * a visitor without it has no session to restore, so the page does not ask for one (and gets no 401).
 */
export const SESSION_HINT_COOKIE = 'tr_session';

/** Claims of the access JWT (spec section 3). */
export const ZTokenClaims = z.object({
  sub: z.string(),
  email: z.string(),
  exp: z.number(),
  iat: z.number(),
  server_id: z.string(),
  type: z.string(),
  profiles_limit: z.number().default(0),
  roles: z.union([z.array(z.string()), z.string()]),
});
export type TTokenClaims = z.infer<typeof ZTokenClaims>;

export const ZAuthUser = z.object({
  user_id: z.string(),
  email: z.string(),
  profiles_limit: z.number().int(),
});
export type TAuthUser = z.infer<typeof ZAuthUser>;

export const ZSsoStartQuery = z.object({
  redirect_to: ZText().max(2000).optional(),
  /** After a logout in this browser: the provider asks who signs in rather than reusing its session. */
  prompt: z.enum(['login'], { error: "prompt must be 'login'" }).optional(),
});
export const ZSsoStartResponse = z.object({
  sso_url: z.string(),
  callback_url: z.string(),
});
export type TSsoStartResponse = z.infer<typeof ZSsoStartResponse>;

const MISSING_VER = 'Missing SSO callback parameters (ver token).';

export const ZAuthCallbackQuery = z.object({
  ver: ZText({ error: MISSING_VER }).min(1, { error: MISSING_VER }).max(8000),
  redirect_to: ZText().max(2000).optional(),
  add: ZText().max(200).optional(),
  v2: ZText().max(200).optional(),
});

/**
 * Answer of the SSO callback and of the token refreshes (spec §3). `refresh_token` is always null:
 * the refresh token travels only in its httpOnly cookie (docs/decisions/004-tokens.md).
 */
export const ZAuthTokenResponse = z.object({
  token: z.string(),
  refresh_token: z.string().nullable(),
  user: ZAuthUser,
  expires_at: ZIsoDateTime,
  refresh_expires_at: ZIsoDateTime,
  redirect_url: z.string(),
  requires_subscription: z.boolean(),
  subscribe_url: z.string(),
});
export type TAuthTokenResponse = z.infer<typeof ZAuthTokenResponse>;

export const ZRefreshResponse = ZAuthTokenResponse;
export type TRefreshResponse = z.infer<typeof ZRefreshResponse>;

export const ZV3LoginQuery = z.object({
  v3: ZText().min(1).max(4000),
});
export const ZV3LoginResponse = z.object({
  token: z.string(),
  user: ZAuthUser,
  redirect_url: z.string(),
});
export type TV3LoginResponse = z.infer<typeof ZV3LoginResponse>;

/** The signed-in user with what the top bar needs (roles, limits and usage). */
export const ZMeResponse = z.object({
  user_id: z.string(),
  email: z.string(),
  roles: z.array(z.string()),
  profiles_limit: z.number().int(),
  projects_used: z.number().int(),
});
export type TMeResponse = z.infer<typeof ZMeResponse>;
