import { and, desc, eq, gt, inArray, isNull, lt, lte, or } from 'drizzle-orm';
import type { DbOrTx as Db } from '../../db/client';
import { refreshTokens, ssoStates, usedV3Tokens } from './auth.table';

export async function insertRefreshToken(
  db: Db,
  values: { userId: string; familyId: string; tokenHash: string; expiresAt: Date },
): Promise<void> {
  await db.insert(refreshTokens).values(values);
}

/** Revokes a live token in one statement, so two concurrent uses cannot both rotate it. */
export async function consumeRefreshToken(
  db: Db,
  tokenHash: string,
  now: Date,
): Promise<{ userId: string; familyId: string } | null> {
  const rows = await db
    .update(refreshTokens)
    .set({ revokedAt: now })
    .where(
      and(
        eq(refreshTokens.tokenHash, tokenHash),
        isNull(refreshTokens.revokedAt),
        gt(refreshTokens.expiresAt, now),
      ),
    )
    .returning({ userId: refreshTokens.userId, familyId: refreshTokens.familyId });
  return rows[0] ?? null;
}

/**
 * A token rotated after `rotatedAfter` (a consumed token's `revokedAt` is when it was rotated) whose family
 * still has a live token, that is, was neither logged out nor revoked for reuse. The live rows are locked,
 * so a revocation under way is waited for rather than outrun.
 */
export async function findRecentlyRotatedToken(
  db: Db,
  tokenHash: string,
  now: Date,
  rotatedAfter: Date,
): Promise<{ userId: string; familyId: string } | null> {
  const rows = await db
    .select({ userId: refreshTokens.userId, familyId: refreshTokens.familyId })
    .from(refreshTokens)
    .where(
      and(
        eq(refreshTokens.tokenHash, tokenHash),
        gt(refreshTokens.revokedAt, rotatedAfter),
        gt(refreshTokens.expiresAt, now),
      ),
    )
    .limit(1);
  const rotated = rows[0];
  if (!rotated) return null;
  const live = await db
    .select({ id: refreshTokens.id })
    .from(refreshTokens)
    .where(
      and(
        eq(refreshTokens.familyId, rotated.familyId),
        isNull(refreshTokens.revokedAt),
        gt(refreshTokens.expiresAt, now),
      ),
    )
    .orderBy(refreshTokens.id)
    .for('update');
  return live.length > 0 ? rotated : null;
}

export async function findRefreshToken(db: Db, tokenHash: string) {
  const rows = await db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, tokenHash)).limit(1);
  return rows[0] ?? null;
}

/**
 * Revokes every live token of a family. A rotation or grace answer under way holds some of its live rows:
 * locking them first waits for it, so the revocation also sees the token it wrote.
 */
export async function revokeFamily(db: Db, familyId: string, now: Date): Promise<void> {
  const live = and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt));
  await db.transaction(async (tx) => {
    await tx
      .select({ id: refreshTokens.id })
      .from(refreshTokens)
      .where(live)
      .orderBy(refreshTokens.id)
      .for('update');
    await tx.update(refreshTokens).set({ revokedAt: now }).where(live);
  });
}

export async function insertSsoState(
  db: Db,
  values: { state: string; codeVerifier: string; nonce: string; redirectTo: string | null; expiresAt: Date },
): Promise<void> {
  await db.insert(ssoStates).values(values);
}

/**
 * Bounds the pending sign-ins whatever the clean-up job does: expired ones go, and beyond `max` the
 * oldest give way to the newest.
 */
export async function trimSsoStates(db: Db, now: Date, max: number): Promise<void> {
  const beyondMax = db
    .select({ state: ssoStates.state })
    .from(ssoStates)
    .orderBy(desc(ssoStates.expiresAt))
    .offset(max);
  await db.delete(ssoStates).where(or(lte(ssoStates.expiresAt, now), inArray(ssoStates.state, beyondMax)));
}

export async function findSsoState(db: Db, state: string) {
  const rows = await db.select().from(ssoStates).where(eq(ssoStates.state, state)).limit(1);
  return rows[0] ?? null;
}

/** Takes the state out, so a callback can complete once. */
export async function takeSsoState(db: Db, state: string, now: Date) {
  const rows = await db
    .delete(ssoStates)
    .where(and(eq(ssoStates.state, state), gt(ssoStates.expiresAt, now)))
    .returning();
  return rows[0] ?? null;
}

/** Records a v3 link as used; false when it already was. */
export async function markV3TokenUsed(
  db: Db,
  values: { jti: string; userId: string; expiresAt: Date },
): Promise<boolean> {
  const rows = await db
    .insert(usedV3Tokens)
    .values(values)
    .onConflictDoNothing({ target: usedV3Tokens.jti })
    .returning({ jti: usedV3Tokens.jti });
  return rows.length > 0;
}

/**
 * Drops what can no longer be used: expired refresh tokens (revoked ones stay until they expire, so
 * a stolen token's reuse is still recognised), SSO states and v3 records.
 */
export async function deleteExpiredAuthRecords(
  db: Db,
  now: Date,
): Promise<{ refreshTokens: number; ssoStates: number }> {
  const tokens = await db
    .delete(refreshTokens)
    .where(lt(refreshTokens.expiresAt, now))
    .returning({ id: refreshTokens.id });
  const states = await db
    .delete(ssoStates)
    .where(lt(ssoStates.expiresAt, now))
    .returning({ s: ssoStates.state });
  await db.delete(usedV3Tokens).where(lt(usedV3Tokens.expiresAt, now));
  return { refreshTokens: tokens.length, ssoStates: states.length };
}
