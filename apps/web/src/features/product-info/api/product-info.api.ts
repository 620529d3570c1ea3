import type { TProductInfo, TProductInfoFields, TSaveProductInfoResponse } from '@threadreach/contract';
import { api } from '../../../lib/api-client';

const path = (projectId: string) => `/projects/${encodeURIComponent(projectId)}/product-info`;

export function getProductInfo(projectId: string): Promise<TProductInfo> {
  return api.get<TProductInfo>(path(projectId));
}

/** POST: saves and regenerates the keywords. */
export function saveProductInfoAndRegenerate(
  projectId: string,
  fields: TProductInfoFields,
): Promise<TSaveProductInfoResponse> {
  return api.post<TSaveProductInfoResponse>(path(projectId), { ...fields, regenerate_keywords: true });
}

/** PUT: saves without regenerating keywords. */
export function saveProductInfo(
  projectId: string,
  fields: TProductInfoFields,
): Promise<TSaveProductInfoResponse> {
  return api.put<TSaveProductInfoResponse>(path(projectId), fields);
}
