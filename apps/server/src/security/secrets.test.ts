import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SecretBox, SecretDecryptError, generateSecretKey, parseSecretKeys } from './secrets';

const key = () => randomBytes(32);
const ref = { table: 'reddit_credentials', rowId: 'row-1', column: 'client_secret' };

describe('SecretBox', () => {
  const box = new SecretBox([{ id: 'k1', key: key() }]);

  it('round-trips and never stores the plaintext', () => {
    const sealed = box.encrypt('canary-secret-value', ref);
    expect(sealed).not.toContain('canary');
    expect(sealed.startsWith('k1.')).toBe(true);
    expect(box.decrypt(sealed, ref)).toBe('canary-secret-value');
  });

  it('uses a fresh nonce every time', () => {
    expect(box.encrypt('same', ref)).not.toBe(box.encrypt('same', ref));
  });

  it('refuses a ciphertext copied to another row, table or column', () => {
    const sealed = box.encrypt('s3cret', ref);
    for (const other of [
      { ...ref, rowId: 'row-2' },
      { ...ref, table: 'credential_proxies' },
      { ...ref, column: 'description' },
    ]) {
      expect(() => box.decrypt(sealed, other)).toThrow(SecretDecryptError);
    }
  });

  it('refuses a ciphertext with any byte flipped', () => {
    const sealed = box.encrypt('s3cret', ref);
    const [id, nonce, body] = sealed.split('.') as [string, string, string];
    const bytes = Buffer.from(body, 'base64url');
    for (let i = 0; i < bytes.length; i++) {
      const flipped = Buffer.from(bytes);
      flipped[i]! ^= 0x01;
      expect(() => box.decrypt(`${id}.${nonce}.${flipped.toString('base64url')}`, ref)).toThrow(
        SecretDecryptError,
      );
    }
    const nonceBytes = Buffer.from(nonce, 'base64url');
    nonceBytes[0]! ^= 0x80;
    expect(() => box.decrypt(`${id}.${nonceBytes.toString('base64url')}.${body}`, ref)).toThrow(
      SecretDecryptError,
    );
  });

  it('names where a secret failed, never its value', () => {
    try {
      box.decrypt('k1.bad.bad', ref);
    } catch (error) {
      expect((error as Error).message).toContain('reddit_credentials.client_secret');
    }
  });

  it('decrypts with older keys and reports values needing rotation', () => {
    const oldKey = { id: 'k1', key: key() };
    const before = new SecretBox([oldKey]);
    const sealed = before.encrypt('rotate-me', ref);
    const after = new SecretBox([{ id: 'k2', key: key() }, oldKey]);
    expect(after.isStale(sealed)).toBe(true);
    expect(after.decrypt(sealed, ref)).toBe('rotate-me');
    const resealed = after.encrypt('rotate-me', ref);
    expect(after.isStale(resealed)).toBe(false);
    expect(() => before.decrypt(resealed, ref)).toThrow(SecretDecryptError);
  });

  it('parses a key ring, newest first', () => {
    const ring = parseSecretKeys(`v2:${generateSecretKey()}, v1:${generateSecretKey()}`);
    expect(ring.map((k) => k.id)).toEqual(['v2', 'v1']);
    expect(() => parseSecretKeys('v1:c2hvcnQ=')).toThrow(/32 bytes/);
    expect(() => parseSecretKeys('nokey')).toThrow(/<id>:<base64 key>/);
  });
});
