import type { TProductInfo, TProductInfoFields, TSaveProductInfoResponse } from '@threadreach/contract';
import { productInfoEndpoints } from '@threadreach/contract';
import { call } from '../../../lib/api-client';

export function getProductInfo(projectId: string): Promise<TProductInfo> {
  return call(productInfoEndpoints.get, { params: { projectId } });
}

/** POST: saves and regenerates the keywords; `basedOn` is the `updated_at` the fields were read with. */
export function saveProductInfoAndRegenerate(
  projectId: string,
  fields: TProductInfoFields,
  basedOn: string | null,
): Promise<TSaveProductInfoResponse> {
  return call(productInfoEndpoints.saveAndRegenerate, {
    params: { projectId },
    body: { ...fields, updated_at: basedOn, regenerate_keywords: true },
  });
}

/** PUT: saves without regenerating keywords. */
export function saveProductInfo(
  projectId: string,
  fields: TProductInfoFields,
  basedOn: string | null,
): Promise<TSaveProductInfoResponse> {
  return call(productInfoEndpoints.save, { params: { projectId }, body: { ...fields, updated_at: basedOn } });
}
