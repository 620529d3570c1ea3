import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tx } from '../../db/client';
import { buildUser } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import {
  consumeRefreshToken,
  findRecentlyRotatedToken,
  findRefreshToken,
  insertRefreshToken,
  revokeFamily,
} from './auth.repository';
import { REFRESH_REUSE_GRACE_MS } from './auth.service';
import { refreshTokens } from './auth.table';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

interface Family {
  rotated: string;
  live: string;
  now: Date;
}

// How a refresh takes its token before writing the next one: by rotating the live one, or by the grace
// given to the one rotated a moment ago.
const takers: [string, (tx: Tx, family: Family) => Promise<unknown>][] = [
  ['a rotation', (tx, f) => consumeRefreshToken(tx, f.live, f.now)],
  [
    'a grace answer',
    (tx, f) =>
      findRecentlyRotatedToken(tx, f.rotated, f.now, new Date(f.now.getTime() - REFRESH_REUSE_GRACE_MS)),
  ],
];

describe('refresh token families', () => {
  it.each(takers)('are revoked whole while %s is being written, its new token included', async (_, take) => {
    // PostgreSQL shows the race; PGlite runs one transaction at a time and passes either way.
    const now = new Date(t.ctx.clock.now());
    const user = await buildUser(t.ctx.db, t.config);
    const familyId = randomUUID();
    const token = (name: string) => `${name}-${randomUUID()}`;
    const family: Family = { rotated: token('rotated'), live: token('live'), now };
    const written = token('written');
    const expiresAt = new Date(now.getTime() + 86_400_000);
    await insertRefreshToken(t.ctx.db, { userId: user.id, familyId, tokenHash: family.rotated, expiresAt });
    // The rotated token was spent a moment ago; its successor is the family's live token.
    await t.ctx.db
      .update(refreshTokens)
      .set({ revokedAt: new Date(now.getTime() - 1000) })
      .where(eq(refreshTokens.tokenHash, family.rotated));
    await insertRefreshToken(t.ctx.db, { userId: user.id, familyId, tokenHash: family.live, expiresAt });

    let finishWriting!: () => void;
    const held = new Promise<void>((resolve) => (finishWriting = resolve));
    let started!: () => void;
    const writingStarted = new Promise<void>((resolve) => (started = resolve));
    const refresh = t.ctx.db.transaction(async (tx) => {
      expect(await take(tx, family)).toMatchObject({ familyId });
      await insertRefreshToken(tx, { userId: user.id, familyId, tokenHash: written, expiresAt });
      started();
      await held;
    });
    await writingStarted;
    // A logout at that very moment, which must not leave the token being written alive.
    const logout = revokeFamily(t.ctx.db, familyId, now);
    await new Promise((resolve) => setTimeout(resolve, 200));
    finishWriting();
    await Promise.all([refresh, logout]);

    expect((await findRefreshToken(t.ctx.db, family.live))?.revokedAt).toEqual(now);
    expect((await findRefreshToken(t.ctx.db, written))?.revokedAt).toEqual(now);
  });
});
