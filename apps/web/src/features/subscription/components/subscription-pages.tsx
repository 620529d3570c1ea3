import type { ReactNode } from 'react';
import { Anchor, Center, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';

function SubscriptionShell({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Center mih="100vh" p="md">
      <Paper withBorder p="xl" radius="md" maw={560} w="100%">
        <Stack gap="md">
          <Title order={1} size="h2">
            {title}
          </Title>
          {children}
        </Stack>
      </Paper>
    </Center>
  );
}

/** /subscribe: the plan chooser (plans arrive with billing). */
export function SubscribePage() {
  return (
    <SubscriptionShell title="Choose a plan">
      <Text>Subscription plans will be listed here.</Text>
      <Anchor component={Link} to="/">
        Back to dashboard
      </Anchor>
    </SubscriptionShell>
  );
}

/** /subscribe/success: shown after checkout (the token refresh arrives with billing). */
export function SubscribeSuccessPage() {
  return (
    <SubscriptionShell title="Payment successful">
      <Anchor component={Link} to="/">
        Continue to Dashboard
      </Anchor>
    </SubscriptionShell>
  );
}

/** /subscribe/cancel */
export function SubscribeCancelPage() {
  return (
    <SubscriptionShell title="Payment canceled">
      <Anchor component={Link} to="/subscribe">
        Back to plans
      </Anchor>
    </SubscriptionShell>
  );
}

/** /subscription: the user's subscription (content arrives with billing). */
export function SubscriptionPage() {
  return (
    <SubscriptionShell title="Subscription">
      <Anchor component={Link} to="/">
        Back to dashboard
      </Anchor>
    </SubscriptionShell>
  );
}
