import { describe, expect, it, vi } from 'vitest';
import { makeToken } from '../test/tokens';
import { getToken, hasTokenShape, removeToken, setToken, subscribeToToken, TOKEN_KEY } from './token-storage';

describe('token storage', () => {
  it('stores under authToken and reads it back', () => {
    const token = makeToken();
    expect(setToken(token)).toBe(true);
    expect(localStorage.getItem(TOKEN_KEY)).toBe(token);
    expect(getToken()).toBe(token);
  });

  it('reads the fallback keys jwtToken, token and access_token in that order', () => {
    const a = makeToken({ sub: 'a' });
    const b = makeToken({ sub: 'b' });
    localStorage.setItem('access_token', b);
    expect(getToken()).toBe(b);
    localStorage.setItem('token', a);
    expect(getToken()).toBe(a);
    localStorage.setItem('jwtToken', b);
    expect(getToken()).toBe(b);
  });

  it('removes a stored token without exactly three parts on read', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    localStorage.setItem(TOKEN_KEY, 'not-a-jwt');
    localStorage.setItem('jwtToken', 'a.b.c.d');
    expect(getToken()).toBeNull();
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
    expect(localStorage.getItem('jwtToken')).toBeNull();
  });

  it('refuses (and logs) a token of the wrong shape on write', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(setToken('a.b')).toBe(false);
    expect(setToken(42)).toBe(false);
    expect(setToken('a..c')).toBe(false);
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
    expect(error).toHaveBeenCalled();
  });

  it('removes the token from every key and notifies listeners', () => {
    const listener = vi.fn();
    const unsubscribe = subscribeToToken(listener);
    setToken(makeToken());
    localStorage.setItem('token', makeToken());
    removeToken();
    expect(getToken()).toBeNull();
    expect(listener).toHaveBeenCalledTimes(2);
    unsubscribe();
  });

  it('checks the shape', () => {
    expect(hasTokenShape('x.y.z')).toBe(true);
    expect(hasTokenShape('x.y')).toBe(false);
    expect(hasTokenShape(null)).toBe(false);
  });
});
