export { SubscribePage } from './components/subscribe-page';
export { SubscribeSuccessPage } from './components/subscribe-success-page';
export { SubscribeCancelPage } from './components/subscribe-cancel-page';
export { SubscriptionPage } from './components/subscription-page';
export { useUserSubscription, billingKeys } from './hooks/use-billing';
export { formatPlanPrice, planIntervalText, profilesText } from './plan-format';
