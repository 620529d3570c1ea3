import type { TProductInfo, TProductInfoFields, TSaveProductInfoResponse } from '@threadreach/contract';
import type { AppContext } from '../../context';
import { AppError } from '../../http/errors';
import { generateKeywords } from '../keywords';
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
export async function getProductInfo(ctx: AppContext, projectId: string): Promise<TProductInfo> {
  return present(projectId, await findProductInfo(ctx.db, projectId));
}

/**
 * Saves step 1, and with `regenerateKeywords` writes new keywords for step 2 the way generate-keywords
 * does. Step 1 stays saved when generation fails: the answer says why, and step 2 can retry.
 */
export async function saveProductInfo(
  ctx: AppContext,
  projectId: string,
  fields: TProductInfoFields,
  regenerateKeywords: boolean,
): Promise<TSaveProductInfoResponse> {
  const row = await upsertProductInfo(ctx.db, projectId, fields);
  let generated = false;
  let error: string | null = null;
  if (regenerateKeywords) {
    try {
      generated = (await generateKeywords(ctx, projectId)).generated;
    } catch (failure) {
      if (failure instanceof AppError) {
        error = failure.detail;
      } else {
        ctx.log.error({ err: failure, projectId }, 'keyword generation after saving step 1 failed');
        error = 'Keyword generation failed';
      }
    }
  }
  return {
    product_info: present(projectId, row),
    regenerate_keywords: regenerateKeywords,
    keywords_generated: generated,
    keywords_error: error,
  };
}
