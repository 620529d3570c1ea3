export {
  SubscribePage,
  SubscribeSuccessPage,
  SubscribeCancelPage,
  SubscriptionPage,
} from './components/subscription-pages';
