import { useState } from 'react';
import { Alert, Button, Center, Paper, Stack, Text, Title } from '@mantine/core';
import { CenteredStatus } from '../../../components/ui/centered-status';
import { DemoModeBadge } from '../../../components/ui/demo-mode-badge';
import { ApiError, errorMessage } from '../../../lib/api-error';
import { navigateTo } from '../../../lib/navigation';
import { startSso } from '../api/auth.api';
import { usePublicConfig } from '../hooks/use-auth-queries';

interface TLoginScreenProps {
  /** A message from an earlier sign-in attempt (v3 login, SSO callback). */
  notice?: string | null;
  /** Where the sign-in should return to; undefined for the root page. */
  redirectTo?: string;
}

/**
 * Why sign-in could not start (spec section 8): the server failing or sending no SSO address is its
 * configuration ('Server Error: …'); anything else (no network, a refused request) is said as it is.
 */
function signInStartFailure(failure: unknown): string {
  const message = errorMessage(failure, 'Authentication failed');
  const cause = failure instanceof Error ? failure.cause : null;
  const answer = failure instanceof ApiError ? failure : cause instanceof ApiError ? cause : null;
  // No answer at all (status 0) or a refused request (4xx) is not the server's configuration.
  const configuration = answer === null || answer.status >= 500;
  return configuration ? `Server Error: ${message}` : message;
}

/** 'Authentication Required' with a 'Log In' button that starts single sign-on. */
export function LoginScreen({ notice, redirectTo }: TLoginScreenProps) {
  const config = usePublicConfig();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [redirecting, setRedirecting] = useState(false);

  const logIn = async () => {
    setError(null);
    setPending(true);
    try {
      const ssoUrl = await startSso(redirectTo);
      setRedirecting(true);
      navigateTo(ssoUrl);
    } catch (failure) {
      const mainAppUrl = config.data?.main_app_url;
      if (mainAppUrl) {
        setRedirecting(true);
        const redirect = encodeURIComponent(window.location.href);
        navigateTo(`${mainAppUrl.replace(/\/+$/, '')}/login?redirect=${redirect}`);
        return;
      }
      setError(signInStartFailure(failure));
    } finally {
      setPending(false);
    }
  };

  if (redirecting) return <CenteredStatus text="Redirecting..." />;

  const shown = error ?? notice;
  return (
    <Center mih="100vh" p="md">
      <Paper withBorder shadow="sm" p="xl" radius="md" maw={440} w="100%">
        <Stack gap="md">
          {config.data?.demo_mode && <DemoModeBadge />}
          <Title order={1} size="h2">
            Authentication Required
          </Title>
          <Text>Please log in to access this application.</Text>
          {shown && (
            <Alert color="red" role="alert">
              {shown}
            </Alert>
          )}
          <Button onClick={() => void logIn()} loading={pending}>
            Log In
          </Button>
        </Stack>
      </Paper>
    </Center>
  );
}
