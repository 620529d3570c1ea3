import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { SubscriptionShell } from './subscription-shell';

/** /subscribe/cancel: the checkout was left without paying. */
export function SubscribeCancelPage() {
  return (
    <SubscriptionShell title="Payment canceled">
      <Text>
        Your payment was canceled and nothing was charged. You can choose a plan whenever you are ready.
      </Text>
      <Anchor component={Link} to="/subscribe">
        Back to plans
      </Anchor>
    </SubscriptionShell>
  );
}
