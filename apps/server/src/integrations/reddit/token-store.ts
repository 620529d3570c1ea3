import { and, count, eq, gt, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { SecretBox } from '../../security/secrets';
import type { Clock } from './clock';
import { redditAccessTokens } from './reddit.table';

/** A token this close to expiry is renewed before use. */
const RENEW_BEFORE_MS = 60_000;

const ref = (credentialId: string, subject: string) => ({
  table: 'reddit_access_tokens',
  rowId: `${credentialId}/${subject}`,
  column: 'access_token',
});

/** OAuth access tokens shared by all processes, encrypted at rest. */
export class TokenStore {
  constructor(
    private readonly db: Db,
    private readonly secrets: SecretBox,
    private readonly clock: Clock,
  ) {}

  async get(credentialId: string, subject: string): Promise<string | null> {
    const [row] = await this.db
      .select()
      .from(redditAccessTokens)
      .where(and(eq(redditAccessTokens.credentialId, credentialId), eq(redditAccessTokens.subject, subject)));
    if (!row || row.expiresAt.getTime() - RENEW_BEFORE_MS <= this.clock.now()) return null;
    try {
      return this.secrets.decrypt(row.accessToken, ref(credentialId, subject));
    } catch {
      return null;
    }
  }

  async put(credentialId: string, subject: string, token: string, expiresAtMs: number): Promise<void> {
    const values = {
      credentialId,
      subject,
      accessToken: this.secrets.encrypt(token, ref(credentialId, subject)),
      expiresAt: new Date(expiresAtMs),
      createdAt: new Date(this.clock.now()),
    };
    await this.db
      .insert(redditAccessTokens)
      .values(values)
      .onConflictDoUpdate({
        target: [redditAccessTokens.credentialId, redditAccessTokens.subject],
        set: { accessToken: values.accessToken, expiresAt: values.expiresAt, createdAt: values.createdAt },
      });
  }

  async invalidate(credentialId: string, subject: string): Promise<void> {
    await this.db
      .delete(redditAccessTokens)
      .where(and(eq(redditAccessTokens.credentialId, credentialId), eq(redditAccessTokens.subject, subject)));
  }
}

/** Live tokens per credential (its active clients), for many credentials at once. */
export async function activeTokenCounts(
  db: Db,
  credentialIds: string[],
  nowMs: number,
): Promise<Map<string, number>> {
  const counts = new Map(credentialIds.map((id) => [id, 0]));
  if (credentialIds.length === 0) return counts;
  const rows = await db
    .select({ credentialId: redditAccessTokens.credentialId, n: count() })
    .from(redditAccessTokens)
    .where(
      and(
        inArray(redditAccessTokens.credentialId, credentialIds),
        gt(redditAccessTokens.expiresAt, new Date(nowMs)),
      ),
    )
    .groupBy(redditAccessTokens.credentialId);
  for (const row of rows) counts.set(row.credentialId, row.n);
  return counts;
}

/** Forgets every cached token of a credential (its secret changed, or it was deleted). */
export async function deleteTokens(db: Db, credentialId: string): Promise<void> {
  await db.delete(redditAccessTokens).where(eq(redditAccessTokens.credentialId, credentialId));
}
