import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TProductInfoFields } from '@threadreach/contract';
import { withLoading } from '../../../lib/loading-store';
import { getProductInfo, saveProductInfo, saveProductInfoAndRegenerate } from '../api/product-info.api';

export const productInfoKeys = {
  detail: (projectId: string) => ['product-info', projectId] as const,
};

/** Loading-store flag of a product-info save (cleared by Ctrl+Shift+C or after 60 s). */
export const SAVE_PRODUCT_INFO_FLAG = 'product-info:save';

export function useProductInfo(projectId: string) {
  return useQuery({
    queryKey: productInfoKeys.detail(projectId),
    queryFn: () => getProductInfo(projectId),
  });
}

export function useSaveProductInfo(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      fields,
      basedOn,
      regenerate,
    }: {
      fields: TProductInfoFields;
      basedOn: string | null;
      regenerate: boolean;
    }) =>
      withLoading(SAVE_PRODUCT_INFO_FLAG, () =>
        regenerate
          ? saveProductInfoAndRegenerate(projectId, fields, basedOn)
          : saveProductInfo(projectId, fields, basedOn),
      ),
    onSuccess: (result) => {
      queryClient.setQueryData(productInfoKeys.detail(projectId), result.product_info);
    },
  });
}
