export { billingRoutes, localCheckoutRoutes } from './billing.routes';
export { expireSubscriptionsJob } from './expire-subscriptions.job';
