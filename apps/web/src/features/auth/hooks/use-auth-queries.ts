import { useQuery } from '@tanstack/react-query';
import { getMe, getPublicConfig } from '../api/auth.api';
import { useAuth } from './use-auth';

export const authKeys = {
  publicConfig: ['public-config'] as const,
  me: ['me'] as const,
};

/** Deployment facts (demo mode, main app URL); fetched once per page load. */
export function usePublicConfig() {
  return useQuery({
    queryKey: authKeys.publicConfig,
    queryFn: getPublicConfig,
    staleTime: Infinity,
    retry: 1,
  });
}

/** How often an open page reads the user again: a plan bought or ended elsewhere shows within this. */
export const ME_REFRESH_MS = 60_000;

/** The signed-in user's roles, limit and usage; `enabled: false` leaves it to the other readers. */
export function useMe({ enabled = true }: { enabled?: boolean } = {}) {
  const { isAuthenticated, user } = useAuth();
  return useQuery({
    queryKey: [...authKeys.me, user?.user_id ?? null],
    queryFn: getMe,
    enabled: isAuthenticated && enabled,
    refetchInterval: ME_REFRESH_MS,
  });
}

/**
 * The signed-in user's profiles_limit as the app applies it: their subscription's once read, the token's
 * until then, and 0 when it could not be read (spec section 8).
 */
export function useProfilesLimit(): number {
  const { user } = useAuth();
  const me = useMe();
  if (me.isError) return 0;
  return me.data?.profiles_limit ?? user?.profiles_limit ?? 0;
}
