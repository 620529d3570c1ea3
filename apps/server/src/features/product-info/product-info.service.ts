import type { TProductInfo, TProductInfoFields, TSaveProductInfoResponse } from '@threadreach/contract';
import type { Db } from '../../db/client';
import type { ProductInfoRow } from './product-info.table';
import { findProductInfo, upsertProductInfo } from './product-info.repository';

function present(projectId: string, row: ProductInfoRow | null): TProductInfo {
  return {
    project_id: projectId,
    product_description: row?.productDescription ?? '',
    ideal_client_profile: row?.idealClientProfile ?? '',
    call_to_action: row?.callToAction ?? '',
    writing_style: row?.writingStyle ?? '',
    updated_at: row?.updatedAt.toISOString() ?? null,
  };
}

/** Step 1 of a project; empty fields until it is first saved. */
export async function getProductInfo(db: Db, projectId: string): Promise<TProductInfo> {
  return present(projectId, await findProductInfo(db, projectId));
}

/**
 * Saves step 1. With `regenerateKeywords` the client moves on to step 2; keyword generation
 * itself belongs to the AI engine, so nothing is generated here yet.
 */
export async function saveProductInfo(
  db: Db,
  projectId: string,
  fields: TProductInfoFields,
  regenerateKeywords: boolean,
): Promise<TSaveProductInfoResponse> {
  const row = await upsertProductInfo(db, projectId, fields);
  return {
    product_info: present(projectId, row),
    regenerate_keywords: regenerateKeywords,
    keywords_generated: false,
    keywords_error: null,
  };
}
