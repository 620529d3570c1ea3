import {
  PRODUCT_INFO_CHANGED,
  PRODUCT_INFO_CHANGED_DETAIL,
  type TProductInfo,
  type TProductInfoFields,
  type TSaveProductInfoResponse,
} from '@threadreach/contract';
import type { AppContext } from '../../context';
import { AppError } from '../../http/errors';
import { generateKeywords } from '../keywords';
import type { ProductInfoRow } from './product-info.table';
import { findProductInfo, lockProductInfo, upsertProductInfo } from './product-info.repository';

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

const changedElsewhere = () => new AppError(409, PRODUCT_INFO_CHANGED, PRODUCT_INFO_CHANGED_DETAIL);

/** Whether the saved row is the version a save was made from (null: none saved); compared to the ms. */
function isVersion(row: ProductInfoRow | null, basedOn: string | null): boolean {
  if (row === null || basedOn === null) return row === null && basedOn === null;
  return row.updatedAt.getTime() === Date.parse(basedOn);
}

/**
 * Saves step 1 as of `basedOn` (the `updated_at` it was made from, when given): a version saved over since
 * is refused (409), so two tabs never overwrite each other's changes unseen.
 */
async function saveFields(
  ctx: AppContext,
  projectId: string,
  fields: TProductInfoFields,
  basedOn: string | null | undefined,
): Promise<ProductInfoRow> {
  if (basedOn === undefined) return (await upsertProductInfo(ctx.db, projectId, fields))!;
  return ctx.db.transaction(async (tx) => {
    if (!isVersion(await lockProductInfo(tx, projectId), basedOn)) throw changedElsewhere();
    // Nothing to lock before the first save: of two first saves, the later one finds the row taken.
    const row = await upsertProductInfo(tx, projectId, fields, basedOn === null);
    if (!row) throw changedElsewhere();
    return row;
  });
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
  basedOn?: string | null,
): Promise<TSaveProductInfoResponse> {
  const row = await saveFields(ctx, projectId, fields, basedOn);
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
