import { z } from 'zod';
import { ZIsoDateTime, ZText } from './common.schema';

/** Product text limits (spec sections 5 and 9). */
export const PRODUCT_INFO_LIMITS = {
  product_description: { min: 50, max: 1000 },
  ideal_client_profile: { min: 30, max: 1000 },
  call_to_action: { min: 1, max: 200 },
  writing_style: { min: 1, max: 350 },
} as const;
export type TProductInfoField = keyof typeof PRODUCT_INFO_LIMITS;

const LABELS: Record<TProductInfoField, string> = {
  product_description: 'Product description',
  ideal_client_profile: 'Ideal client profile',
  call_to_action: 'Call to action',
  writing_style: 'Writing style',
};

function field(name: TProductInfoField) {
  const { min, max } = PRODUCT_INFO_LIMITS[name];
  const label = LABELS[name];
  return ZText({ error: `${label} is required` })
    .trim()
    .min(min, { error: min > 1 ? `${label} must be at least ${min} characters` : `${label} is required` })
    .max(max, { error: `${label} must be at most ${max} characters` });
}

export const ZProductInfoFields = z.object({
  product_description: field('product_description'),
  ideal_client_profile: field('ideal_client_profile'),
  call_to_action: field('call_to_action'),
  writing_style: field('writing_style'),
});
export type TProductInfoFields = z.infer<typeof ZProductInfoFields>;

/** A save made from a version of step 1 that was saved over since (another tab, another user): 409. */
export const PRODUCT_INFO_CHANGED = 'product_info_changed';
export const PRODUCT_INFO_CHANGED_DETAIL =
  'The product information was changed elsewhere since you opened it. Reload it to see those changes.';

/**
 * The `updated_at` of the product information the save was made from (null: nothing was saved yet). A save
 * made from an older version is refused with 409 instead of overwriting; without it a save is not checked.
 */
const ZBasedOn = z.iso
  .datetime({ error: 'updated_at must be the updated_at the product information was read with' })
  .nullable()
  .optional();

/** POST saves and, by default, regenerates keywords. The path names the project. */
export const ZSaveProductInfoRequest = ZProductInfoFields.extend({
  updated_at: ZBasedOn,
  regenerate_keywords: z.boolean().default(true),
});
export type TSaveProductInfoRequest = z.input<typeof ZSaveProductInfoRequest>;

/** PUT saves only: the spec's other write method, sent with regenerate_keywords false. */
export const ZUpdateProductInfoRequest = ZProductInfoFields.extend({
  updated_at: ZBasedOn,
  regenerate_keywords: z
    .literal(false, { error: 'PUT saves only: regenerate_keywords must be false' })
    .optional(),
});
export type TUpdateProductInfoRequest = z.input<typeof ZUpdateProductInfoRequest>;

export const ZProductInfo = z
  .object({
    project_id: z.string(),
    product_description: z.string(),
    ideal_client_profile: z.string(),
    call_to_action: z.string(),
    writing_style: z.string(),
    updated_at: ZIsoDateTime.nullable(),
  })
  .meta({ id: 'ProductInfo' });
export type TProductInfo = z.infer<typeof ZProductInfo>;

export const ZSaveProductInfoResponse = z.object({
  product_info: ZProductInfo,
  regenerate_keywords: z.boolean(),
  /** True when regeneration asked for keywords and they were written (step 2 then lists them). */
  keywords_generated: z.boolean(),
  /** Why generation failed, when it did; step 1 is saved anyway. */
  keywords_error: z.string().nullable(),
});
export type TSaveProductInfoResponse = z.infer<typeof ZSaveProductInfoResponse>;
