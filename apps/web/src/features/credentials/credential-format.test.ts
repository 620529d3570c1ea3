import { describe, expect, it } from 'vitest';
import { buildCreateRequest, EMPTY_CREDENTIAL_FORM } from './credential-form';
import { formatProxyLocation, formatTimestamp, isFailureRateHigh, shortId } from './credential-format';
import { listParamsOf } from './credential-filters';

describe('credential formatting', () => {
  it('shows the first 8 characters of an id', () => {
    expect(shortId('3f2a9c1e-5b7d-4e8f-9a0b-1c2d3e4f5a6b')).toBe('3f2a9c1e');
  });

  it("joins country, state and city, or says 'Random'", () => {
    expect(formatProxyLocation({ country: 'US', state: 'CA', city: 'Los Angeles' })).toBe(
      'US, CA, Los Angeles',
    );
    expect(formatProxyLocation({ country: 'DE', state: null, city: null })).toBe('DE');
    expect(formatProxyLocation({ country: null, state: null, city: null })).toBe('Random');
    expect(formatProxyLocation(null)).toBe('Random');
  });

  it("says 'Never' without a timestamp", () => {
    expect(formatTimestamp(null)).toBe('Never');
    expect(formatTimestamp('2030-01-01T00:00:00Z')).not.toBe('Never');
  });

  it('highlights proxy failure rates above 5%', () => {
    expect(isFailureRateHigh(0.05)).toBe(false);
    expect(isFailureRateHigh(0.0501)).toBe(true);
  });

  it('leaves the type out of the list query for All', () => {
    expect(listParamsOf({ type: 'all', includeDisabled: false, page: 1 })).toEqual({
      credentialType: undefined,
      includeDisabled: false,
      limit: 20,
      offset: 0,
    });
    expect(listParamsOf({ type: 'send', includeDisabled: true, page: 3 })).toMatchObject({
      credentialType: 'send',
      includeDisabled: true,
      offset: 40,
    });
  });

  it('names the form field of each schema error', () => {
    const result = buildCreateRequest({ ...EMPTY_CREDENTIAL_FORM, city: 'x'.repeat(51) });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.errors).toMatchObject({
        account_name: 'Account name is required',
        client_id: 'Client ID is required',
        client_secret: 'Client secret is required',
        city: 'City must be at most 50 characters',
      });
    }
  });
});
