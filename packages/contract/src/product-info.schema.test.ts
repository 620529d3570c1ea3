import { describe, expect, it } from 'vitest';
import { ZSaveProductInfoRequest, ZUpdateProductInfoRequest } from './product-info.schema';

const FIELDS = {
  product_description: 'A scheduling tool for small dental clinics that cuts no-shows in half.',
  ideal_client_profile: 'Owners of dental clinics with 1 to 5 chairs.',
  call_to_action: 'Book a free 15-minute demo.',
  writing_style: 'Friendly and short.',
};

describe('product info saves', () => {
  it.each([
    ['POST', ZSaveProductInfoRequest],
    ['PUT', ZUpdateProductInfoRequest],
  ] as const)('%s carries the version it was made from, or none', (_method, schema) => {
    const version = '2030-01-01T00:00:00.123Z';
    expect(schema.parse({ ...FIELDS, updated_at: version }).updated_at).toBe(version);
    expect(schema.parse({ ...FIELDS, updated_at: null }).updated_at).toBeNull();
    expect(schema.parse(FIELDS).updated_at).toBeUndefined();
    expect(schema.safeParse({ ...FIELDS, updated_at: 'yesterday' }).success).toBe(false);
  });
});
