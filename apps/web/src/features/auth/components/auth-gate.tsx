import { useEffect, useState, type ReactNode } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { CenteredStatus } from '../../../components/ui/centered-status';
import { restoreSession } from '../../../lib/auth-session';
import { safeRedirectPath } from '../../../lib/navigation';
import { loginWithV3, v3ErrorMessage } from '../api/auth.api';
import {
  LOGIN_ROUTE,
  SUBSCRIBE_ROUTE,
  addressWithoutV3,
  isSubscriptionPath,
  loginReturnTarget,
} from '../auth-paths';
import { useAuth } from '../hooks/use-auth';
import { useMe } from '../hooks/use-auth-queries';
import { LoginScreen } from './login-screen';

/**
 * Authentication and subscription gate around every page: handles ?v3= direct login, lets
 * subscription pages and the SSO return page through, tries a silent refresh, shows the login
 * screen, and sends users without a subscription to /subscribe.
 */
export function AuthGate({ children }: { children: ReactNode }) {
  const { pathname, search, hash } = useLocation();
  const navigate = useNavigate();
  const auth = useAuth();
  const [v3Notice, setV3Notice] = useState<string | null>(null);
  const v3 = new URLSearchParams(search).get('v3');
  const cleanAddress = addressWithoutV3(pathname, search, hash);
  const ungated = isSubscriptionPath(pathname);
  // A token without a plan sends every page to /subscribe, where nothing else reads the user: the user is
  // read here, so a plan bought since (in another browser, say) refreshes the token and lets them in.
  useMe({ enabled: Boolean(auth.user && auth.user.profiles_limit <= 0 && !auth.isModerator) });

  useEffect(() => {
    if (!v3) return;
    let active = true;
    loginWithV3(v3)
      .then(
        () => undefined,
        (error: unknown) => {
          if (active) setV3Notice(`V3 Login Error: ${v3ErrorMessage(error)}`);
        },
      )
      .finally(() => {
        if (active) navigate(cleanAddress, { replace: true });
      });
    return () => {
      active = false;
    };
  }, [v3, cleanAddress, navigate]);

  const silentRefresh = useQuery({
    queryKey: ['auth', 'silent-refresh', auth.token],
    queryFn: restoreSession,
    enabled: !v3 && !ungated && !auth.isAuthenticated,
    staleTime: Infinity,
    gcTime: Infinity,
    retry: false,
  });

  if (v3) return <CenteredStatus text="Checking authentication..." />;
  if (ungated) return <>{children}</>;

  if (!auth.isAuthenticated || !auth.user) {
    if (silentRefresh.isPending) return <CenteredStatus text="Checking authentication..." />;
    return <LoginScreen notice={v3Notice} redirectTo={loginReturnTarget(pathname, search, hash)} />;
  }

  if (pathname === LOGIN_ROUTE) {
    return <Navigate to={safeRedirectPath(new URLSearchParams(search).get('redirect'))} replace />;
  }
  if (auth.user.profiles_limit <= 0 && !auth.isModerator) {
    return <Navigate to={SUBSCRIBE_ROUTE} replace />;
  }
  return <>{children}</>;
}
