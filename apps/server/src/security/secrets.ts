import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** Where a ciphertext lives: binding it to its place means a value copied elsewhere fails to decrypt. */
export interface SecretRef {
  table: string;
  rowId: string;
  column: string;
}

export class SecretDecryptError extends Error {
  override name = 'SecretDecryptError';
  constructor(readonly ref: SecretRef) {
    // Never the value itself: only where it lives.
    super(`Secret in ${ref.table}.${ref.column} (row ${ref.rowId}) could not be decrypted`);
  }
}

const KEY_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;

/**
 * AES-256-GCM for secrets at rest. A ciphertext is `<key id>.<nonce>.<ciphertext+tag>` (base64url); the
 * associated data is table + row id + column. The first key of the ring encrypts; every key decrypts,
 * so keys rotate by putting a new one first and running `npm run cli -- reencrypt-secrets`.
 */
export class SecretBox {
  private readonly keys: Map<string, Buffer>;
  readonly currentKeyId: string;

  constructor(keys: { id: string; key: Buffer }[]) {
    if (keys.length === 0) throw new Error('SecretBox needs at least one key');
    for (const { id, key } of keys) {
      if (!KEY_ID.test(id)) throw new Error(`Invalid secret key id '${id}'`);
      if (key.length !== KEY_BYTES) throw new Error(`Secret key '${id}' must be ${KEY_BYTES} bytes`);
    }
    this.keys = new Map(keys.map((k) => [k.id, k.key]));
    this.currentKeyId = keys[0]!.id;
  }

  encrypt(plaintext: string, ref: SecretRef): string {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(this.currentKeyId)!, nonce);
    cipher.setAAD(associatedData(this.currentKeyId, ref));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${this.currentKeyId}.${nonce.toString('base64url')}.${body.toString('base64url')}`;
  }

  decrypt(ciphertext: string, ref: SecretRef): string {
    const [keyId, nonceText, bodyText, extra] = ciphertext.split('.');
    const key = keyId ? this.keys.get(keyId) : undefined;
    if (!key || !nonceText || !bodyText || extra !== undefined) throw new SecretDecryptError(ref);
    const nonce = Buffer.from(nonceText, 'base64url');
    const body = Buffer.from(bodyText, 'base64url');
    if (nonce.length !== NONCE_BYTES || body.length < TAG_BYTES) throw new SecretDecryptError(ref);
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, nonce);
      decipher.setAAD(associatedData(keyId!, ref));
      decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
      return Buffer.concat([
        decipher.update(body.subarray(0, body.length - TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      throw new SecretDecryptError(ref);
    }
  }

  /** True when the value was encrypted with an older key. */
  isStale(ciphertext: string): boolean {
    return !ciphertext.startsWith(`${this.currentKeyId}.`);
  }
}

function associatedData(keyId: string, ref: SecretRef): Buffer {
  return Buffer.from(JSON.stringify(['threadreach-secret-v1', keyId, ref.table, ref.rowId, ref.column]));
}

/** Parses `id:base64key[,id:base64key...]`, newest first. */
export function parseSecretKeys(spec: string): { id: string; key: Buffer }[] {
  return spec
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const colon = part.indexOf(':');
      if (colon < 1) throw new Error('each key must be written as <id>:<base64 key>');
      const id = part.slice(0, colon);
      const key = Buffer.from(part.slice(colon + 1), 'base64');
      if (!KEY_ID.test(id)) throw new Error(`key id '${id}' may use letters, digits, '_' and '-' only`);
      if (key.length !== KEY_BYTES) throw new Error(`key '${id}' must decode to ${KEY_BYTES} bytes`);
      return { id, key };
    });
}

export function generateSecretKey(): string {
  return randomBytes(KEY_BYTES).toString('base64');
}
