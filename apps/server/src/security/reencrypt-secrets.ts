import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { SecretDecryptError, type SecretBox } from './secrets';

/**
 * Every encrypted column, with the expression that names its row in the associated data. A new encrypted
 * column must be listed here, or key rotation would leave it on the old key.
 */
export const ENCRYPTED_COLUMNS: { table: string; column: string; rowId: SQL }[] = [
  { table: 'reddit_credentials', column: 'client_secret', rowId: sql`id::text` },
  { table: 'credential_proxies', column: 'proxy_url', rowId: sql`credential_id::text` },
  { table: 'reddit_access_tokens', column: 'access_token', rowId: sql`credential_id || '/' || subject` },
  { table: 'project_webhooks', column: 'secret_ciphertext', rowId: sql`project_id::text` },
  { table: 'reddit_accounts', column: 'refresh_token_ciphertext', rowId: sql`id::text` },
];

export interface ReencryptReport {
  table: string;
  column: string;
  rows: number;
  reencrypted: number;
  /** Values no key of the ring opens (a key was removed too early); they are left as they are. */
  unreadable: number;
}

/**
 * Re-encrypts every secret that is not on the current key. Each row is rewritten only if it still holds
 * the value that was read, so a concurrent update is never overwritten with stale plaintext.
 */
export async function reencryptSecrets(db: Db, secrets: SecretBox): Promise<ReencryptReport[]> {
  const reports: ReencryptReport[] = [];
  for (const { table, column, rowId } of ENCRYPTED_COLUMNS) {
    const result = await db.execute<{ row_id: string; value: string }>(
      sql`select ${rowId} as row_id, ${sql.identifier(column)} as value from ${sql.identifier(table)} where ${sql.identifier(column)} is not null`,
    );
    let reencrypted = 0;
    let unreadable = 0;
    for (const { row_id, value } of result.rows) {
      if (!secrets.isStale(value)) continue;
      const ref = { table, rowId: row_id, column };
      let plaintext: string;
      try {
        plaintext = secrets.decrypt(value, ref);
      } catch (error) {
        if (!(error instanceof SecretDecryptError)) throw error;
        unreadable++;
        continue;
      }
      const fresh = secrets.encrypt(plaintext, ref);
      await db.execute(
        sql`update ${sql.identifier(table)} set ${sql.identifier(column)} = ${fresh}
            where ${rowId} = ${row_id} and ${sql.identifier(column)} = ${value}`,
      );
      reencrypted++;
    }
    reports.push({ table, column, rows: result.rows.length, reencrypted, unreadable });
  }
  return reports;
}
