import { useMutation, useQuery } from '@tanstack/react-query';
import { navigateTo } from '../../../lib/navigation';
import {
  createCheckoutSession,
  createPortalSession,
  getAvailablePlans,
  getUserSubscription,
} from '../api/billing.api';

export const billingKeys = {
  plans: ['billing', 'plans'] as const,
  subscription: (userId: string | null) => ['billing', 'subscription', userId] as const,
};

export function useAvailablePlans() {
  return useQuery({
    queryKey: billingKeys.plans,
    queryFn: getAvailablePlans,
    retry: false,
    staleTime: 60_000,
  });
}

export function useCreateCheckoutSession() {
  return useMutation({ mutationFn: createCheckoutSession });
}

/** Opens the payment provider's page where the plan is changed or canceled. */
export function useOpenBillingPortal() {
  return useMutation({ mutationFn: createPortalSession, onSuccess: (url) => navigateTo(url) });
}

/**
 * A user's subscription and limit. `profilesLimit` is 0 while loading or when the lookup fails
 * (spec section 8: a failed fetch of the owner's subscription sets the limit to 0).
 */
export function useUserSubscription(userId: string | null) {
  const query = useQuery({
    queryKey: billingKeys.subscription(userId),
    queryFn: () => getUserSubscription(userId!),
    enabled: Boolean(userId),
  });
  return { ...query, profilesLimit: query.isError ? 0 : (query.data?.profiles_limit ?? 0) };
}
