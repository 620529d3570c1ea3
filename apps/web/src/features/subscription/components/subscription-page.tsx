import { Anchor, Group, Loader, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useAuth } from '../../auth';
import { useUserSubscription } from '../hooks/use-billing';
import { PLAN_MESSAGES } from '../messages';
import { SubscriptionShell } from './subscription-shell';

function periodEnd(value: string | null): string | null {
  return value ? new Date(value).toLocaleDateString('en-US', { dateStyle: 'medium' }) : null;
}

/** /subscription: the signed-in user's plan and limit. */
export function SubscriptionPage() {
  const auth = useAuth();
  const subscription = useUserSubscription(auth.user?.user_id ?? null);
  const data = subscription.data;

  let content;
  if (!auth.isAuthenticated) {
    content = <Text>{PLAN_MESSAGES.authRequired}</Text>;
  } else if (subscription.isPending) {
    content = <Loader aria-label="Loading subscription" />;
  } else if (subscription.isError || !data) {
    content = <Text c="red">{subscription.error?.message ?? PLAN_MESSAGES.loadFailed}</Text>;
  } else {
    const sub = data.subscription;
    const ends = periodEnd(sub?.current_period_end ?? null);
    content = (
      <Stack gap="xs">
        <Text>
          {data.unlimited
            ? 'Profiles: no limit'
            : `Profiles: ${data.projects_used}/${data.profiles_limit} used`}
        </Text>
        {sub ? (
          <>
            <Text>Status: {sub.status}</Text>
            {ends && (
              <Text>
                {sub.cancel_at_period_end || sub.status === 'canceled'
                  ? `Access ends ${ends}`
                  : `Renews ${ends}`}
              </Text>
            )}
          </>
        ) : (
          <Text>No subscription yet.</Text>
        )}
      </Stack>
    );
  }

  return (
    <SubscriptionShell title="Subscription">
      {content}
      <Group gap="md">
        <Anchor component={Link} to="/subscribe">
          Plans
        </Anchor>
        <Anchor component={Link} to="/">
          Back to dashboard
        </Anchor>
      </Group>
    </SubscriptionShell>
  );
}
