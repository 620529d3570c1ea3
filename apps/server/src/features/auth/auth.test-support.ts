import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../context';
import { insertRefreshToken } from './auth.repository';
import { REFRESH_COOKIE } from './auth.routes';
import { hashToken, newOpaqueToken } from './tokens';

/** A live sign-in session for a user, as its refresh cookie header: what a browser that signed in sends. */
export async function refreshCookieFor(ctx: AppContext, userId: string): Promise<{ cookie: string }> {
  const token = newOpaqueToken();
  await insertRefreshToken(ctx.db, {
    userId,
    familyId: randomUUID(),
    tokenHash: hashToken(token),
    expiresAt: new Date(ctx.clock.now() + 86_400_000),
  });
  return { cookie: `${REFRESH_COOKIE}=${token}` };
}
