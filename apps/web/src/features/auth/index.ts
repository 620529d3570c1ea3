export { AuthGate } from './components/auth-gate';
export { AuthCallbackPage } from './components/auth-callback-page';
export { LoginScreen } from './components/login-screen';
export { useAuth, type TAuthState } from './hooks/use-auth';
export { useMe, usePublicConfig, useProfilesLimit, authKeys } from './hooks/use-auth-queries';
export {
  AI_SUBSCRIPTION_REQUIRED,
  AiBlockReasonProvider,
  useAiBlockReason,
  useOwnAiBlockReason,
} from './ai-access';
export { isSubscriptionPath, LOGIN_ROUTE, AUTH_CALLBACK_ROUTE, SUBSCRIBE_ROUTE } from './auth-paths';
export { logout } from '../../lib/auth-session';
export { ModeratorOnly, ACCESS_DENIED_TEXT } from './components/moderator-only';
export { READ_ONLY_FLAG } from './access-texts';
export { AdminPageHeading } from './components/admin-page-heading';
