/** Texts of spec section 8, "Subscription pages", and of the success page (section 2). */
export const PLAN_MESSAGES = {
  loadFailed: 'Failed to load subscription options. Please try again later.',
  checkoutFailed: 'Failed to start checkout process. Please try again.',
  authRequired: 'Authentication required. Please log in first.',
  fetchPlansStatus: (status: number) => `Failed to fetch available plans: ${status}`,
  createSessionStatus: (status: number) => `Failed to create checkout session: ${status}`,
  noPlans: 'No subscription plans available.',
  portalFailed: 'Could not open the billing page. Please try again.',
} as const;

/**
 * /subscribe for those who are sold no plan (decision 012): one plan runs at a time, moderators and
 * admins have no limit to buy, and a read-only account's seat is managed by an administrator.
 */
export const NO_CHECKOUT_MESSAGES = {
  noPlanNeeded: 'You need no plan',
  noPlanNeededText: 'Moderators and admins work without a plan: your profiles have no limit.',
  readOnlyText: 'Plans for this account are chosen by your administrator, so none can be selected here.',
  /** `names`: 'Starter', 'Starter and Growth', or null for a plan no longer on sale. */
  renewing: (names: string | null, count: number) =>
    names ? `You have the ${names} plan${count > 1 ? 's' : ''}` : 'You have a plan',
  canceled: (names: string | null, count: number, ends: string) =>
    `Your ${names ? `${names} ` : ''}plan${count > 1 ? 's run' : ' runs'} until ${ends}`,
  renewingText: 'No second plan is sold while yours runs. To change or cancel yours, open',
  canceledText:
    'It was canceled and keeps its profiles until then. You can choose a plan again once it has ended; to resume or manage it, open',
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

/** /subscription after the last plan ended: what its end did, and how to start again (decision 012). */
export const ENDED_MESSAGES = {
  ended: (plan: string | null, on: string | null) =>
    `Your ${plan ? `${plan} plan` : 'plan'} ${on ? `ended on ${on}` : 'has ended'}. You no longer have access.`,
  stopped:
    'DMs still queued when it ended were taken back to your unsent DMs, and your agents were paused. Your projects, Reddit accounts and DMs are kept.',
  restart:
    'After you subscribe again, Send All queues those DMs again, and completing learning again restarts an agent.',
  choosePlan: 'Choose a plan',
} as const;
