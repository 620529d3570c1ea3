import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Center,
  Group,
  Loader,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { ALREADY_SUBSCRIBED, type TSubscriptionPlan } from '@threadreach/contract';
import { Link, useNavigate } from 'react-router';
import { navigateTo } from '../../../lib/navigation';
import { useAuth } from '../../auth';
import { YourProjectsCard } from '../../projects';
import { SubscriptionError } from '../api/billing.api';
import {
  billingKeys,
  useAvailablePlans,
  useCreateCheckoutSession,
  useUserSubscription,
} from '../hooks/use-billing';
import { PLAN_MESSAGES } from '../messages';
import { formatPlanPrice, planIntervalText, profilesText } from '../plan-format';
import { SubscribeAccountBar } from './subscribe-account-bar';
import { SubscriptionShell } from './subscription-shell';

export const SUBSCRIBE_FOOTER =
  'Payments are processed securely by our card payment provider. You can cancel anytime.';

/** Plans that renew and give their profiles now: the ones a customer would buy twice by mistake. */
const RENEWING_STATUSES: readonly string[] = ['active', 'trialing', 'past_due'];

/** 'Starter', 'Starter and Growth', 'Starter, Growth and Pro'. */
function namesText(names: string[]): string {
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : (names[0] ?? '');
}

/** The way to the customer's plans, readable on the blue notices (the link colour alone is not). */
function SubscriptionLink() {
  return (
    <Anchor component={Link} to="/subscription" inherit c="var(--mantine-primary-color-9)" underline="always">
      Subscription
    </Anchor>
  );
}

function PlanCard({
  plan,
  loading,
  disabled,
  current,
  onSelect,
}: {
  plan: TSubscriptionPlan;
  loading: boolean;
  disabled: boolean;
  /** One of the customer's own renewing plans: not sold to them a second time. */
  current: boolean;
  onSelect: () => void;
}) {
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-label={plan.product_name}>
      <Stack gap="xs" h="100%">
        <Group gap="xs" justify="space-between" wrap="nowrap">
          <Title order={2} size="h3">
            {plan.product_name}
          </Title>
          {current && (
            <Badge variant="light" tt="none">
              Your plan
            </Badge>
          )}
        </Group>
        <Group gap={6} align="baseline">
          <Text size="xl" fw={700}>
            {formatPlanPrice(plan)}
          </Text>
          <Text c="dimmed" size="sm">
            {planIntervalText(plan)}
          </Text>
        </Group>
        <Text fw={500}>{profilesText(plan.profiles_limit)}</Text>
        {plan.description && (
          <Text size="sm" c="dimmed">
            {plan.description}
          </Text>
        )}
        <Button mt="auto" onClick={onSelect} disabled={disabled || loading || current} fullWidth>
          {loading ? 'Loading...' : current ? 'Current Plan' : 'Select Plan'}
        </Button>
      </Stack>
    </Card>
  );
}

function asSubscriptionError(error: unknown, fallback: string): SubscriptionError {
  if (error instanceof SubscriptionError) return error;
  return new SubscriptionError(fallback, error instanceof Error ? error.message : null);
}

/** /subscribe: a card per plan; 'Select Plan' goes to the payment provider's checkout. */
export function SubscribePage() {
  const navigate = useNavigate();
  const auth = useAuth();
  const plans = useAvailablePlans();
  const checkout = useCreateCheckoutSession();
  const [chosen, setChosen] = useState<string | null>(null);
  const [checkoutError, setCheckoutError] = useState<SubscriptionError | null>(null);
  /** A plan the server says the customer already has, though this page did not know it yet. */
  const [alreadyHeld, setAlreadyHeld] = useState<TSubscriptionPlan | null>(null);
  const queryClient = useQueryClient();
  const customer = auth.hasActiveSubscription && !auth.isModerator;
  const subscription = useUserSubscription(customer ? (auth.user?.user_id ?? null) : null);
  // A customer may hold several plans (a second one beside the first): each renewing one is theirs.
  const currentPriceIds = new Set(
    (subscription.data?.subscriptions ?? [])
      .filter((held) => RENEWING_STATUSES.includes(held.status))
      .map((held) => held.price_id),
  );
  const currentPlans = plans.data?.filter((plan) => currentPriceIds.has(plan.price_id)) ?? [];

  const select = (plan: TSubscriptionPlan) => {
    setCheckoutError(null);
    setAlreadyHeld(null);
    setChosen(plan.price_id);
    checkout.mutate(plan.price_id, {
      // The card keeps 'Loading...' while the browser leaves for the checkout page.
      onSuccess: (session) => navigateTo(session.checkout_url),
      onError: (error) => {
        setChosen(null);
        if (error instanceof SubscriptionError && error.code === ALREADY_SUBSCRIBED) {
          setAlreadyHeld(plan);
          void queryClient.invalidateQueries({
            queryKey: billingKeys.subscription(auth.user?.user_id ?? null),
          });
          return;
        }
        setCheckoutError(asSubscriptionError(error, PLAN_MESSAGES.checkoutFailed));
      },
    });
  };

  const error =
    checkoutError ?? (plans.isError ? asSubscriptionError(plans.error, PLAN_MESSAGES.loadFailed) : null);
  const tryAgain = () => {
    setCheckoutError(null);
    if (plans.isError) void plans.refetch();
  };

  let content;
  if (plans.isPending) {
    content = (
      <Center py="xl">
        <Loader aria-label="Loading plans" />
      </Center>
    );
  } else if (plans.data && plans.data.length === 0) {
    content = <Text>{PLAN_MESSAGES.noPlans}</Text>;
  } else if (plans.data) {
    content = (
      <SimpleGrid cols={{ base: 1, sm: Math.min(plans.data.length, 3) }} spacing="md">
        {plans.data.map((plan) => (
          <PlanCard
            key={plan.price_id}
            plan={plan}
            loading={chosen === plan.price_id}
            disabled={chosen !== null}
            current={currentPriceIds.has(plan.price_id)}
            onSelect={() => select(plan)}
          />
        ))}
      </SimpleGrid>
    );
  }

  return (
    <SubscriptionShell title="Choose a plan" width={960} actions={<SubscribeAccountBar />}>
      <Text c="dimmed">
        Each plan sets how many Reddit profiles (connected accounts and projects) you can use.
      </Text>
      {error && (
        <Alert color="red" role="alert" title={error.message}>
          <Stack gap="sm">
            {error.detail && <Text size="sm">{error.detail}</Text>}
            <Group gap="sm">
              <Button size="xs" variant="light" color="red" onClick={tryAgain}>
                Try Again
              </Button>
              <Button
                size="xs"
                variant="default"
                onClick={() => navigate(`/login?redirect=${encodeURIComponent('/subscribe')}`)}
              >
                Sign In First
              </Button>
            </Group>
          </Stack>
        </Alert>
      )}
      {alreadyHeld && (
        <Alert color="blue" role="alert" title={PLAN_MESSAGES.alreadySubscribed(alreadyHeld.product_name)}>
          It is not sold to you a second time. To change or cancel it, open <SubscriptionLink />.
        </Alert>
      )}
      {currentPlans.length > 0 && (
        <Alert
          color="blue"
          title={`You have the ${namesText(currentPlans.map((plan) => plan.product_name))} plan${currentPlans.length > 1 ? 's' : ''}`}
        >
          Another plan is a second subscription, billed beside {currentPlans.length > 1 ? 'them' : 'it'}; the
          higher limit applies. To change or cancel yours, open <SubscriptionLink />.
        </Alert>
      )}
      {content}
      {auth.user && !auth.hasActiveSubscription && !auth.isModerator && !auth.isReadOnly && (
        <YourProjectsCard
          ownerId={auth.user.user_id}
          note={
            <>
              What stopped when your plan ended, and how to start it again: <SubscriptionLink />.
            </>
          }
        />
      )}
      <Text size="sm" c="dimmed" ta="center" component="footer">
        {SUBSCRIBE_FOOTER}
      </Text>
    </SubscriptionShell>
  );
}
