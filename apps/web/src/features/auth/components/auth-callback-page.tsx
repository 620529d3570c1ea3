import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { CenteredStatus } from '../../../components/ui/centered-status';
import { errorMessage } from '../../../lib/api-error';
import { hasSession, setSsoProcessing } from '../../../lib/auth-session';
import { navigateTo, safeRedirectPath } from '../../../lib/navigation';
import { AUTH_MESSAGES, DEFAULT_SUBSCRIBE_PATH, completeSsoCallback } from '../api/auth.api';
import { LoginScreen } from './login-screen';

/** /auth/callback: the single sign-on return page. */
export function AuthCallbackPage() {
  const [params] = useSearchParams();
  const ver = params.get('ver');
  const redirectTo = params.get('redirect_to');
  const add = params.get('add');
  const v2 = params.get('v2');
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    let active = true;
    completeSsoCallback({ ver, redirect_to: redirectTo, add, v2 }).then(
      (result) => {
        if (!active) return;
        if (result.requires_subscription) {
          navigateTo(result.subscribe_url || DEFAULT_SUBSCRIBE_PATH, { replace: true });
        } else if (result.success) {
          navigateTo(result.redirect_url || '/', { replace: true });
        } else {
          setFailure(`Server Error: ${result.error_message ?? AUTH_MESSAGES.serverConfiguration}`);
        }
      },
      (error: unknown) => {
        // The link was refused, so nothing was stored for a refresh to race: refreshes may run again.
        setSsoProcessing(false);
        // A link spent already (this page reloaded after signing in): whoever is signed in goes on.
        void hasSession().then((signedIn) => {
          if (!active) return;
          if (signedIn) navigateTo(safeRedirectPath(redirectTo), { replace: true });
          else setFailure(errorMessage(error, AUTH_MESSAGES.v3Failed));
        });
      },
    );
    return () => {
      active = false;
    };
  }, [ver, redirectTo, add, v2]);

  if (failure) {
    const target = safeRedirectPath(redirectTo);
    return <LoginScreen notice={failure} redirectTo={target === '/' ? undefined : target} />;
  }
  return <CenteredStatus text="Checking authentication..." />;
}
