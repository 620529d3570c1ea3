import { Anchor, Button, Group } from '@mantine/core';
import { Link } from 'react-router';
import { logout, useAuth } from '../../auth';

/**
 * The way out of the plans page: a link back to the dashboard for those who may use it (a
 * subscription, or moderator rank), and Logout for anyone signed in.
 */
export function SubscribeAccountBar() {
  const auth = useAuth();
  if (!auth.isAuthenticated) return null;
  const mayUseDashboard = auth.hasActiveSubscription || auth.isModerator;
  return (
    <Group justify="flex-end" gap="sm" component="nav" aria-label="Account">
      {mayUseDashboard && (
        <Anchor component={Link} to="/" size="sm">
          Go to Dashboard
        </Anchor>
      )}
      <Button variant="default" size="xs" onClick={() => void logout({ goHome: true })}>
        Logout
      </Button>
    </Group>
  );
}
