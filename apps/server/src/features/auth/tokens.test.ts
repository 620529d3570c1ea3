import { SignJWT, jwtVerify } from 'jose';
import { createHmac, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, type TestUser } from '../../test/factories';
import { createTestApp, TEST_JWT_SECRET, type TestApp } from '../../test/test-app';
import { signAccessToken, verifyAccessToken, VERIFIED_TOKENS_MAX } from './tokens';

let t: TestApp;
let user: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  user = await buildUser(t.ctx.db, t.config);
});
afterAll(() => t.close());

const b64 = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');

function claims(overrides: Record<string, unknown> = {}) {
  const now = Math.floor(Date.now() / 1000);
  return {
    sub: user.id,
    email: user.email,
    server_id: 'threadreach-local',
    type: 'access',
    profiles_limit: 3,
    roles: ['USER'],
    iss: t.config.publicUrl,
    aud: 'threadreach-api',
    iat: now,
    exp: now + 600,
    ...overrides,
  };
}

async function sign(
  payload: Record<string, unknown>,
  secret = TEST_JWT_SECRET,
  alg = 'HS256',
  header: Record<string, unknown> = {},
) {
  return new SignJWT(payload).setProtectedHeader({ ...header, alg }).sign(new TextEncoder().encode(secret));
}

/** A token whose header and payload are taken as given and signed with the right key. */
function signRaw(header: unknown, payload: unknown) {
  const signingInput = `${b64(header as object)}.${b64(payload as object)}`;
  const mac = createHmac('sha256', TEST_JWT_SECRET).update(signingInput).digest('base64url');
  return `${signingInput}.${mac}`;
}

/** Another payload under a genuine token's signature. */
async function forged() {
  const [header, , signature] = (await sign(claims())).split('.');
  return `${header}.${b64(claims({ sub: randomUUID(), roles: ['ADMIN'] }))}.${signature}`;
}

async function call(token: string) {
  return t.app.inject({ url: '/api/v1/me', headers: { authorization: `Bearer ${token}` } });
}

describe('access tokens', () => {
  it('carries the spec claims and is accepted', async () => {
    const { token } = await signAccessToken(t.config, user, t.ctx.clock.now());
    const payload = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
    expect(payload).toMatchObject({
      sub: user.id,
      email: user.email,
      server_id: 'threadreach-local',
      type: 'access',
      profiles_limit: 3,
      roles: ['USER'],
    });
    expect(payload.exp - payload.iat).toBe(900);
    expect((await call(token)).statusCode).toBe(200);
    expect(await verifyAccessToken(t.config, await sign(claims()), t.ctx.clock.now())).toMatchObject({
      id: user.id,
    });
  });

  it('is judged by the clock it is given, not the wall clock', async () => {
    const issuedAt = Date.UTC(2031, 4, 6, 12);
    const { token, expiresAt } = await signAccessToken(t.config, user, issuedAt);
    expect(expiresAt.getTime()).toBe(issuedAt + 900_000);
    await expect(verifyAccessToken(t.config, token, issuedAt + 899_000)).resolves.toMatchObject({
      id: user.id,
    });
    await expect(verifyAccessToken(t.config, token, issuedAt + 901_000)).rejects.toThrow();
  });

  it.each([
    ['alg none', async () => `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims())}.`],
    ['a bad signature', async () => sign(claims(), 'another-secret-that-is-long-enough-0123456789')],
    ['an expired token', async () => sign(claims({ iat: 1_000, exp: 2_000 }))],
    ['a wrong issuer', async () => sign(claims({ iss: 'https://evil.example' }))],
    ['a wrong audience', async () => sign(claims({ aud: 'another-api' }))],
    ['another token type', async () => sign(claims({ type: 'refresh' }))],
    ['HS512 instead of HS256', async () => sign(claims(), TEST_JWT_SECRET, 'HS512')],
    ['a token without exp', async () => sign(claims({ exp: undefined }))],
    ['a token without iat', async () => sign(claims({ iat: undefined }))],
    ['a malformed token', async () => 'not.a.jwt'],
    ['two parts', async () => 'abc.def'],
    ['a forged payload under a genuine signature', forged],
    ['alg none signed with the key', async () => signRaw({ alg: 'none' }, claims())],
    ['no alg', async () => signRaw({ typ: 'JWT' }, claims())],
    ['an empty signature', async () => `${(await sign(claims())).split('.').slice(0, 2).join('.')}.`],
    ['a padded signature', async () => `${await sign(claims())}=`],
    ['a critical header extension', async () => signRaw({ alg: 'HS256', crit: ['exp'], exp: 1 }, claims())],
    ['an exp that is text', async () => signRaw({ alg: 'HS256' }, claims({ exp: '99999999999' }))],
    ['an exp of now', async () => sign(claims({ exp: Math.floor(Date.now() / 1000) }))],
    ['a token not valid yet', async () => sign(claims({ nbf: Math.floor(Date.now() / 1000) + 600 }))],
    ['a payload that is not an object', async () => signRaw({ alg: 'HS256' }, [claims()])],
    ['four parts', async () => `${await sign(claims())}.x`],
  ])('rejects %s with 401', async (_name, make) => {
    const res = await call(await make());
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ detail: 'Invalid or expired token.', code: 'invalid_token' });
  });

  // One deliberate difference: jose understands `crit: ["b64"]`; no header extension is accepted here.
  it('decides exactly as jose did with the checks it was given', async () => {
    const now = t.ctx.clock.now();
    const joseVerdict = async (token: string) => {
      try {
        const { payload } = await jwtVerify(token, new TextEncoder().encode(TEST_JWT_SECRET), {
          algorithms: ['HS256'],
          issuer: t.config.publicUrl,
          audience: 'threadreach-api',
          currentDate: new Date(now),
          requiredClaims: ['exp', 'iat', 'sub'],
        });
        return payload.type === 'access' && typeof payload.sub === 'string';
      } catch {
        return false;
      }
    };
    const ours = (token: string) =>
      verifyAccessToken(t.config, token, now).then(
        () => true,
        () => false,
      );
    const seconds = Math.floor(now / 1000);
    const tokens = [
      await sign(claims()),
      await sign(claims({ aud: ['another-api', 'threadreach-api'] })),
      await sign(claims({ nbf: seconds - 10 })),
      await sign(claims(), TEST_JWT_SECRET, 'HS256', { typ: 'at+jwt', kid: 'k1' }),
      await sign(claims({ exp: seconds + 1 })),
      await sign(claims({ exp: seconds })),
      await sign(claims({ exp: seconds - 1 })),
      await sign(claims({ nbf: seconds + 1 })),
      await sign(claims({ aud: ['another-api'] })),
      await sign(claims({ iss: undefined })),
      await sign(claims({ sub: 42 })),
      await sign(claims({ sub: undefined })),
      await sign(claims({ iat: 'yesterday' })),
      signRaw({ alg: 'HS256' }, claims({ exp: null })),
      signRaw({ alg: 'HS256' }, claims({ nbf: 'soon' })),
      signRaw({ alg: 'none' }, claims()),
      signRaw({ alg: 'hs256' }, claims()),
      signRaw('HS256', claims()),
      await forged(),
    ];
    const verdicts = await Promise.all(
      tokens.map(async (token) => [await ours(token), await joseVerdict(token)]),
    );
    expect(verdicts.map(([mine]) => mine)).toEqual(verdicts.map(([, jose]) => jose));
    expect(verdicts.slice(0, 5).every(([mine]) => mine)).toBe(true);
  });

  it('checks the signature and the clock again when a token was seen before', async () => {
    const now = t.ctx.clock.now();
    const token = await sign(claims());
    const first = await verifyAccessToken(t.config, token, now);
    // The caller gets its own copy: changing it changes nothing for the next request.
    first.roles.push('ADMIN');
    expect((await verifyAccessToken(t.config, token, now)).roles).toEqual(['USER']);

    const [header, payload, signature] = token.split('.') as [string, string, string];
    const flipped = `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'AB' : 'AA'}`;
    await expect(verifyAccessToken(t.config, `${header}.${payload}.${flipped}`, now)).rejects.toThrow(
      'bad signature',
    );
    // A non-canonical encoding of the right MAC is refused too (a 32-byte MAC ends in 2 padding bits).
    const last = signature.at(-1)!;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const sibling = alphabet[alphabet.indexOf(last) ^ 1]!;
    await expect(
      verifyAccessToken(t.config, `${header}.${payload}.${signature.slice(0, -1)}${sibling}`, now),
    ).rejects.toThrow('bad signature');
    await expect(verifyAccessToken(t.config, token, now + 601_000)).rejects.toThrow('expired');
    // A genuine token is still accepted after all of this.
    await expect(verifyAccessToken(t.config, token, now)).resolves.toMatchObject({ id: user.id });
  });

  it('keeps a bounded number of checked tokens and still verifies the ones it let go', async () => {
    const now = t.ctx.clock.now();
    const first = await sign(claims({ jti: 'first' }));
    await verifyAccessToken(t.config, first, now);
    for (let i = 0; i < VERIFIED_TOKENS_MAX; i++) {
      const token = signRaw({ alg: 'HS256' }, claims({ jti: `t-${i}` }));
      await verifyAccessToken(t.config, token, now);
    }
    await expect(verifyAccessToken(t.config, first, now)).resolves.toMatchObject({ id: user.id });
    const [header, payload] = first.split('.');
    await expect(verifyAccessToken(t.config, `${header}.${payload}.${'A'.repeat(43)}`, now)).rejects.toThrow(
      'bad signature',
    );
  });

  it('asks for a token when none is sent', async () => {
    const res = await t.app.inject({ url: '/api/v1/me' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ detail: 'Authentication required.', code: 'unauthorized' });
  });

  it('refuses roles that give no access', async () => {
    const nobody = await buildUser(t.ctx.db, t.config, { roles: ['GUEST'] });
    const res = await call(nobody.token);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('no_role');
  });
});
