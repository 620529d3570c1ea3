import { Alert, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import { reloadPage } from '../../../lib/navigation';
import { authKeys } from '../../auth';
import { useAccessRefresh } from '../hooks/use-access-refresh';
import { SUCCESS_MESSAGES } from '../messages';
import { SubscriptionShell } from './subscription-shell';

/** /subscribe/success: refreshes the access token so it carries the new limit, then goes to the dashboard. */
export function SubscribeSuccessPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const state = useAccessRefresh({
    sessionId: params.get('session_id'),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: authKeys.me }),
    onDone: () => navigate('/', { replace: true }),
  });

  return (
    <SubscriptionShell title="Payment successful">
      {state.status === 'ready' && <Text>{SUCCESS_MESSAGES.ready}</Text>}
      {state.status === 'processing' && (
        <Group gap="sm" role="status" aria-live="polite">
          <Loader size="sm" aria-hidden />
          <Text>{SUCCESS_MESSAGES.processing}</Text>
        </Group>
      )}
      {state.status === 'success' && (
        <Alert color="green" role="status">
          {SUCCESS_MESSAGES.success}
        </Alert>
      )}
      {state.status === 'error' && (
        <Stack gap="sm">
          <Alert color="red" role="alert">
            {state.message}
          </Alert>
          <Text>{SUCCESS_MESSAGES.attemptFailed(state.attempt)}</Text>
          {state.attempt >= 2 && <Text c="dimmed">{SUCCESS_MESSAGES.logOutHint}</Text>}
          <Group gap="sm">
            <Button onClick={() => reloadPage()}>Try Again</Button>
            <Button variant="default" onClick={() => navigate('/')}>
              Continue to Dashboard
            </Button>
          </Group>
        </Stack>
      )}
    </SubscriptionShell>
  );
}
