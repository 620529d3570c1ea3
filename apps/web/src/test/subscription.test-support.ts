import type { TUserSubscriptionResponse } from '@threadreach/contract';

/** A customer's plan lookup: by default one profile given with no plan behind it; `more` changes any field. */
export function buildUserSubscription(
  more: Partial<TUserSubscriptionResponse> = {},
): TUserSubscriptionResponse {
  return {
    user_id: 'user-1',
    user_email: 'user@example.com',
    profiles_limit: 1,
    projects_limit: 1,
    projects_used: 0,
    accounts_used: 0,
    unlimited: false,
    has_active_subscription: true,
    subscription: null,
    subscriptions: [],
    ...more,
  };
}
