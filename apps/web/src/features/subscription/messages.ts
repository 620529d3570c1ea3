/** Texts of spec section 8, "Subscription pages", and of the success page (section 2). */
export const PLAN_MESSAGES = {
  loadFailed: 'Failed to load subscription options. Please try again later.',
  checkoutFailed: 'Failed to start checkout process. Please try again.',
  authRequired: 'Authentication required. Please log in first.',
  fetchPlansStatus: (status: number) => `Failed to fetch available plans: ${status}`,
  createSessionStatus: (status: number) => `Failed to create checkout session: ${status}`,
  noPlans: 'No subscription plans available.',
  portalFailed: 'Could not open the billing page. Please try again.',
  alreadySubscribed: (plan: string) => `You already have the ${plan} plan.`,
} as const;

export const SUCCESS_MESSAGES = {
  ready: 'Thank you! Your payment went through. Your access will be updated in a moment.',
  processing: 'Verifying your subscription and updating access...',
  success: 'Access updated successfully! Redirecting to your dashboard...',
  storage: 'Failed to save updated access token. Your browser may have storage restrictions.',
  network: 'Network error while updating access. Please check your connection.',
  invalidToken: 'Received invalid access token. Please contact support.',
  generic: 'An error occurred while updating your access.',
  delayed: 'Subscription activated but access update is delayed. Please refresh in a moment.',
  noToken: 'No JWT token received from refresh.',
  authRequired: 'Authentication required.',
  badStoredToken: 'Invalid token format.',
  attemptFailed: (attempt: number) => `Attempt ${attempt} failed. Your payment was successful.`,
  logOutHint: 'If this keeps happening, log out and log back in to refresh your access.',
} as const;
