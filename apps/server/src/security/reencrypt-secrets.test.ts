import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCredential } from '../features/credentials';
import { TokenStore, systemClock } from '../integrations/reddit';
import { createTestApp, type TestApp } from '../test/test-app';
import { ENCRYPTED_COLUMNS, reencryptSecrets } from './reencrypt-secrets';
import { SecretBox } from './secrets';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({
    env: { PROXY_URL_TEMPLATE: 'http://u-{session}:pw@proxy.example.com:8000' },
  });
});
afterAll(() => t.close());

type Ciphertext = { ref: { table: string; column: string; rowId: string }; value: string };

/** The secrets of these credentials (on PostgreSQL other test files share the database, with their own keys). */
async function ciphertextsOf(credentialIds: string[]): Promise<Ciphertext[]> {
  const found: Ciphertext[] = [];
  for (const { table, column, rowId } of ENCRYPTED_COLUMNS) {
    const rows = await t.ctx.db.execute<{ row_id: string; value: string }>(
      sql`select ${rowId} as row_id, ${sql.identifier(column)} as value from ${sql.identifier(table)}`,
    );
    for (const r of rows.rows) {
      if (credentialIds.some((id) => r.row_id.startsWith(id))) {
        found.push({ ref: { table, column, rowId: r.row_id }, value: r.value });
      }
    }
  }
  return found;
}

async function credentialWithToken(name: string): Promise<string> {
  const created = await createCredential(t.ctx, {
    type: 'search',
    account_name: name,
    client_id: `rotate-${randomUUID()}`,
    client_secret: `secret-of-${name}`,
    enabled: true,
  });
  await new TokenStore(t.ctx.db, t.ctx.secrets, systemClock).put(
    created.id,
    'app',
    `token-of-${name}`,
    Date.now() + 3600_000,
  );
  return created.id;
}

describe('key rotation', () => {
  it('re-encrypts every secret of every encrypted column with the new key', async () => {
    const ids = [await credentialWithToken('bot_a'), await credentialWithToken('bot_b')];
    const before = await ciphertextsOf(ids);
    expect(new Set(before.map((c) => c.ref.table))).toEqual(
      new Set(['reddit_credentials', 'credential_proxies', 'reddit_access_tokens']),
    );
    const plaintexts = before.map((c) => t.ctx.secrets.decrypt(c.value, c.ref));

    const newKey = { id: 'k2', key: randomBytes(32) };
    const rotated = new SecretBox([newKey, ...t.config.secretKeys]);
    const report = await reencryptSecrets(t.ctx.db, rotated);
    expect(report.reduce((n, r) => n + r.reencrypted, 0)).toBeGreaterThanOrEqual(before.length);

    const after = await ciphertextsOf(ids);
    expect(after).toHaveLength(before.length);
    expect(after.every((c) => c.value.startsWith('k2.'))).toBe(true);
    const onlyNewKey = new SecretBox([newKey]);
    // Rows come back in no particular order once updated (PostgreSQL moves them).
    expect(after.map((c) => onlyNewKey.decrypt(c.value, c.ref)).sort()).toEqual([...plaintexts].sort());

    const again = await reencryptSecrets(t.ctx.db, rotated);
    const mineAgain = await ciphertextsOf(ids);
    expect(mineAgain.map((c) => c.value).sort()).toEqual(after.map((c) => c.value).sort());
    expect(again.reduce((n, r) => n + r.reencrypted, 0)).toBe(0);
  });

  it('leaves values that no configured key opens, and reports them', async () => {
    const ids = [await credentialWithToken('orphan_bot')];
    const before = await ciphertextsOf(ids);
    const strangers = new SecretBox([{ id: 'k9', key: randomBytes(32) }]);
    const report = await reencryptSecrets(t.ctx.db, strangers);
    expect(report.reduce((n, r) => n + r.unreadable, 0)).toBeGreaterThanOrEqual(before.length);
    expect((await ciphertextsOf(ids)).map((c) => c.value)).toEqual(before.map((c) => c.value));
  });

  it('lists every column that holds ciphertext', async () => {
    // Any text column whose values look like `<key id>.<nonce>.<body>` must be in ENCRYPTED_COLUMNS.
    const columns = await t.ctx.db.execute<{ table_name: string; column_name: string }>(
      sql`select table_name, column_name from information_schema.columns
          where table_schema = 'public' and data_type = 'text'`,
    );
    const listed = new Set(ENCRYPTED_COLUMNS.map((c) => `${c.table}.${c.column}`));
    for (const { table_name, column_name } of columns.rows) {
      const hit = await t.ctx.db.execute(
        sql`select 1 from ${sql.identifier(table_name)}
            where ${sql.identifier(column_name)} ~ '^[A-Za-z0-9_-]{1,32}\\.[A-Za-z0-9_-]{16}\\.[A-Za-z0-9_-]{22,}$' limit 1`,
      );
      if (hit.rows.length)
        expect(listed, `${table_name}.${column_name}`).toContain(`${table_name}.${column_name}`);
    }
  });
});
