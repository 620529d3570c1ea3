import { createContext, useContext } from 'react';
import { useAuth } from './hooks/use-auth';
import { useProfilesLimit } from './hooks/use-auth-queries';

/** Why AI generation buttons are disabled without an active subscription (spec section 5). */
export const AI_SUBSCRIPTION_REQUIRED = 'Subscription required for AI features';

/**
 * The signed-in user's reason not to generate with AI, or null. Moderators and admins are exempt, as the
 * server has them; a customer's plan that lapsed shows here before their token carries it.
 */
export function useOwnAiBlockReason(): string | null {
  const { isModerator } = useAuth();
  const limit = useProfilesLimit();
  return !isModerator && limit <= 0 ? AI_SUBSCRIPTION_REQUIRED : null;
}

const AiBlockReason = createContext<string | null>(null);

/** Set by the workspace for every step below it. */
export const AiBlockReasonProvider = AiBlockReason.Provider;

/** Why the AI generation buttons here are disabled, or null. */
export function useAiBlockReason(): string | null {
  return useContext(AiBlockReason);
}
