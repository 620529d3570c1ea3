import { useSyncExternalStore } from 'react';
import { isAdmin, isModerator, isReadOnly } from '@threadreach/contract';
import { useMinuteClock } from '../../../lib/clock';
import { getUserInfo, isTokenValid, type TUserInfo } from '../../../lib/jwt';
import { getToken, subscribeToToken } from '../../../lib/token-storage';

export interface TAuthState {
  token: string | null;
  isAuthenticated: boolean;
  user: TUserInfo | null;
  isAdmin: boolean;
  isModerator: boolean;
  isReadOnly: boolean;
  /** profiles_limit > 0 (spec section 3). */
  hasActiveSubscription: boolean;
}

/** The signed-in user from the stored token; re-read when the token changes and every 60 s. */
export function useAuth(): TAuthState {
  const token = useSyncExternalStore(subscribeToToken, getToken, () => null);
  const now = useMinuteClock();
  const isAuthenticated = isTokenValid(token, now);
  const user = isAuthenticated ? getUserInfo(token) : null;
  const roles = user?.roles ?? [];
  return {
    token,
    isAuthenticated,
    user,
    isAdmin: isAdmin(roles),
    isModerator: isModerator(roles),
    isReadOnly: isReadOnly(roles),
    hasActiveSubscription: (user?.profiles_limit ?? 0) > 0,
  };
}
