import { describe, expect, it } from 'vitest';
import { PROXY_CITY_MAX, ZCreateCredentialRequest, ZProxyPreferencesInput } from './credentials.schema';

const BASE = { type: 'search', account_name: 'bot', client_id: 'id', client_secret: 'secret' } as const;

describe('proxy places', () => {
  it.each([
    ['São Paulo'],
    ['Zürich'],
    ['Kraków'],
    ['Reykjavík'],
    ['Москва'],
    ['東京'],
    ['القاهرة'],
    ['St. Louis'],
    ['Winston-Salem'],
    ['Ho Chi Minh'],
  ])('accepts the city %s', (city) => {
    expect(ZProxyPreferencesInput.parse({ city }).city).toBe(city);
  });

  it('accepts letters with accents in state and country too', () => {
    expect(ZProxyPreferencesInput.parse({ country: 'BR', state: 'São Paulo' })).toEqual({
      country: 'BR',
      state: 'São Paulo',
    });
  });

  it('stores one form of an accented letter, however it was typed', () => {
    const decomposed = 'Sa\u0303o Paulo';
    const parsed = ZProxyPreferencesInput.parse({ city: decomposed });
    expect(parsed.city).toBe('São Paulo');
    expect(parsed.city).toHaveLength(9);
  });

  it('counts a composed letter once against the length limit', () => {
    const city = 'ã'.repeat(PROXY_CITY_MAX);
    expect(ZProxyPreferencesInput.parse({ city: city.normalize('NFD') }).city).toBe(city);
    expect(ZProxyPreferencesInput.safeParse({ city: `${city}a` }).success).toBe(false);
  });

  it.each([['a@b:c/d'], ['x?y'], ['a#b'], ['new%20york'], ['tab\there'], ['nul\u0000'], ['emoji 🏙']])(
    'refuses %j, which could change the proxy URL',
    (city) => {
      const result = ZCreateCredentialRequest.safeParse({ ...BASE, proxy_preferences: { city } });
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toBe(
        'City may contain only letters, digits, spaces, dots and dashes',
      );
    },
  );

  it.each([['12'], ['U1'], ['U'], ['U$'], ['ÜS']])(
    'refuses the country code %j: it is two letters',
    (country) => {
      const result = ZCreateCredentialRequest.safeParse({ ...BASE, proxy_preferences: { country } });
      expect(result.success).toBe(false);
      expect(result.error?.issues.map((i) => i.message)).toEqual([
        'Country code must be two letters, such as US',
      ]);
    },
  );

  it('says only that a three-letter country code is too long', () => {
    const result = ZProxyPreferencesInput.safeParse({ country: 'USA' });
    expect(result.error?.issues.map((i) => i.message)).toEqual(['Country code must be at most 2 characters']);
  });

  it('accepts a two-letter country code in either case', () => {
    expect(ZProxyPreferencesInput.parse({ country: ' de ' }).country).toBe('de');
    expect(ZProxyPreferencesInput.parse({ country: 'US' }).country).toBe('US');
  });

  it('turns an empty place into none', () => {
    expect(ZProxyPreferencesInput.parse({ country: '', state: '  ', city: '' })).toEqual({
      country: null,
      state: null,
      city: null,
    });
  });
});
