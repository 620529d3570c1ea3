import { Anchor, Button, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { useAuth } from '../../auth';
import { useAvailablePlans, useOpenBillingPortal, useUserSubscription } from '../hooks/use-billing';
import { ENDED_MESSAGES, PLAN_MESSAGES } from '../messages';
import { formatPeriodEnd } from '../plan-format';
import { SubscriptionShell } from './subscription-shell';

/**
 * The customer's last plan has ended: when, what stopped with it, and the way back. The lookup shows the
 * latest plan when none gives access; its period end is the day access ended, unless the plan was ended
 * early (a payment Stripe gave up on), when that day is still to come and is not shown.
 */
function PlanEnded({ plan, periodEndsAt }: { plan: string | null; periodEndsAt: string | null }) {
  // Read once: whether that day has passed does not change while the page is open.
  const [now] = useState(() => Date.now());
  const past = periodEndsAt !== null && new Date(periodEndsAt).getTime() <= now;
  return (
    <Stack gap="xs">
      <Text fw={600}>{ENDED_MESSAGES.ended(plan, past ? formatPeriodEnd(periodEndsAt) : null)}</Text>
      <Text>{ENDED_MESSAGES.stopped}</Text>
      <Text>{ENDED_MESSAGES.restart}</Text>
    </Stack>
  );
}

/**
 * Manage subscription: the provider's page, where the plan is changed or canceled (the plans page
 * promises that it can be canceled at any time). READONLY accounts' seats are managed for them.
 */
function ManageSubscription() {
  const auth = useAuth();
  const portal = useOpenBillingPortal();
  if (auth.isReadOnly) return null;
  return (
    <Stack gap={4} align="flex-start">
      <Button
        variant="light"
        onClick={() => portal.mutate()}
        // Stays busy after success: the browser is on its way to the provider's page.
        loading={portal.isPending || portal.isSuccess}
      >
        Manage subscription
      </Button>
      <Text size="sm" c="dimmed">
        Change or cancel your plan on the payment provider&apos;s page.
      </Text>
      {portal.isError && (
        <Text c="red" role="alert">
          {portal.error.message}
        </Text>
      )}
    </Stack>
  );
}

/** /subscription: the signed-in user's plan and limit, and the way to change or cancel it. */
export function SubscriptionPage() {
  const auth = useAuth();
  const subscription = useUserSubscription(auth.user?.user_id ?? null);
  const plans = useAvailablePlans();
  const data = subscription.data;

  const planName = (priceId: string | null) =>
    plans.data?.find((plan) => plan.price_id === priceId)?.product_name ?? null;

  let content;
  if (!auth.isAuthenticated) {
    content = <Text>{PLAN_MESSAGES.authRequired}</Text>;
  } else if (subscription.isPending) {
    content = <Loader aria-label="Loading subscription" />;
  } else if (subscription.isError || !data) {
    content = <Text c="red">{subscription.error?.message ?? PLAN_MESSAGES.loadFailed}</Text>;
  } else if (!data.unlimited && data.profiles_limit <= 0 && data.subscriptions.length > 0) {
    // Held but giving no access: the lookup's latest plan, ended. Its limit of 0 and its billing page
    // would say nothing useful.
    const ended = data.subscriptions[0]!;
    content = <PlanEnded plan={planName(ended.price_id)} periodEndsAt={ended.current_period_end} />;
  } else {
    const held = data.subscriptions;
    content = (
      <Stack gap="xs">
        {data.unlimited ? (
          <Text>Profiles: no limit</Text>
        ) : (
          // The limit counts both (spec: connected accounts and projects).
          <Stack gap={2}>
            <Text>Profiles: up to {data.profiles_limit}</Text>
            <Text>
              Projects: {data.projects_used}/{data.profiles_limit} used
            </Text>
            <Text>
              Reddit accounts: {data.accounts_used}/{data.profiles_limit} connected
            </Text>
          </Stack>
        )}
        {held.length > 0 ? (
          <>
            {held.length > 1 && (
              <Text size="sm" c="dimmed">
                You hold {held.length} plans; the highest limit applies.
              </Text>
            )}
            <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Your plans">
              {held.map((sub, index) => {
                const name = planName(sub.price_id);
                const ends = formatPeriodEnd(sub.current_period_end);
                return (
                  <Paper key={index} component="li" withBorder p="xs" radius="sm" aria-label={name ?? 'Plan'}>
                    {name && <Text>Plan: {name}</Text>}
                    <Text>Status: {sub.status}</Text>
                    {ends && (
                      <Text>
                        {sub.cancel_at_period_end || sub.status === 'canceled'
                          ? `Access ends ${ends}`
                          : `Renews ${ends}`}
                      </Text>
                    )}
                  </Paper>
                );
              })}
            </Stack>
            <ManageSubscription />
          </>
        ) : (
          <Text>
            {data.profiles_limit > 0 && !data.unlimited
              ? 'Your profiles were given by an administrator: there is no plan to manage.'
              : 'No subscription yet.'}
          </Text>
        )}
      </Stack>
    );
  }

  // Without access the dashboard sends the customer to the plans anyway: offer them directly.
  const withoutAccess = data !== undefined && !data.unlimited && data.profiles_limit <= 0;
  return (
    <SubscriptionShell title="Subscription">
      {content}
      {withoutAccess ? (
        <Group>
          <Button component={Link} to="/subscribe">
            {ENDED_MESSAGES.choosePlan}
          </Button>
        </Group>
      ) : (
        <Group gap="md">
          <Anchor component={Link} to="/subscribe">
            Plans
          </Anchor>
          <Anchor component={Link} to="/">
            Back to dashboard
          </Anchor>
        </Group>
      )}
    </SubscriptionShell>
  );
}
