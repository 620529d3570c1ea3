import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TUpdateWebhookRequest, TWebhook } from '@threadreach/contract';
import { getWebhook, testWebhook, updateWebhook } from '../api/leads.api';

export const webhookKeys = {
  detail: (projectId: string) => ['webhook', projectId] as const,
};

export function useWebhook(projectId: string) {
  return useQuery({ queryKey: webhookKeys.detail(projectId), queryFn: () => getWebhook(projectId) });
}

export function useUpdateWebhook(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TUpdateWebhookRequest) => updateWebhook(projectId, body),
    // The cache never keeps the secret: it is shown once, from the answer itself.
    onSuccess: ({ secret: _secret, ...webhook }: TWebhook) =>
      queryClient.setQueryData(webhookKeys.detail(projectId), webhook),
  });
}

export function useTestWebhook(projectId: string) {
  return useMutation({ mutationFn: () => testWebhook(projectId) });
}
