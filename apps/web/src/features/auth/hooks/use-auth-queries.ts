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

/** The signed-in user's roles, limit and usage. */
export function useMe() {
  const { isAuthenticated, user } = useAuth();
  return useQuery({
    queryKey: [...authKeys.me, user?.user_id ?? null],
    queryFn: getMe,
    enabled: isAuthenticated,
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
