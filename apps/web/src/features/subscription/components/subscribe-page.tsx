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
import { ALREADY_SUBSCRIBED, NO_PLAN_NEEDED, type TSubscriptionPlan } from '@threadreach/contract';
import { Link, useNavigate } from 'react-router';
import { FORBIDDEN_MESSAGES } from '../../../lib/error-messages';
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
import { NO_CHECKOUT_MESSAGES, PLAN_MESSAGES } from '../messages';
import { formatPeriodEnd, formatPlanPrice, planIntervalText, profilesText } from '../plan-format';
import { SubscribeAccountBar } from './subscribe-account-bar';
import { SubscriptionShell } from './subscription-shell';

export const SUBSCRIBE_FOOTER =
  'Payments are processed securely by our card payment provider. You can cancel anytime.';

/** Statuses of a plan that renews, unless it was canceled at the end of its period. */
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
  offered,
  onSelect,
}: {
  plan: TSubscriptionPlan;
  loading: boolean;
  disabled: boolean;
  /** One of the customer's own plans that still runs: not sold to them a second time. */
  current: boolean;
  /** Whether the plan is sold to this visitor at all: not beside a running plan, nor to moderators. */
  offered: boolean;
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
        {current ? (
          <Button mt="auto" disabled fullWidth>
            Current Plan
          </Button>
        ) : (
          offered && (
            <Button mt="auto" onClick={onSelect} disabled={disabled || loading} fullWidth>
              {loading ? 'Loading...' : 'Select Plan'}
            </Button>
          )
        )}
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
  /** The server's refusal to sell: a plan still runs that this page did not know of, or no plan needed. */
  const [refusal, setRefusal] = useState<SubscriptionError | null>(null);
  const queryClient = useQueryClient();
  // Moderators and admins are never gated by a plan, so none is sold to them (decision 012).
  const staff = auth.isModerator;
  // READONLY cannot save, so the server refuses them a checkout: their seat is an administrator's to manage.
  const readOnly = auth.isReadOnly && !staff;
  const customer = auth.hasActiveSubscription && !staff;
  const subscription = useUserSubscription(customer ? (auth.user?.user_id ?? null) : null);
  // A plan runs until it ends, canceled or not; one may still hold several from before one at a time.
  const running = (subscription.data?.subscriptions ?? []).filter((held) => held.gives_access);
  const renews = running.some(
    (held) => RENEWING_STATUSES.includes(held.status) && !held.cancel_at_period_end,
  );
  const currentPriceIds = new Set(running.map((held) => held.price_id));
  const currentPlans = plans.data?.filter((plan) => currentPriceIds.has(plan.price_id)) ?? [];
  const heldNames = currentPlans.length > 0 ? namesText(currentPlans.map((plan) => plan.product_name)) : null;
  const lastEnd = running
    .map((held) => held.current_period_end)
    .filter((end): end is string => end !== null)
    .sort()
    .at(-1);
  // Nothing is sold beside a running plan; a subscriber's plans are read before any is offered.
  const offered = !staff && !readOnly && running.length === 0 && !(customer && subscription.isPending);

  const select = (plan: TSubscriptionPlan) => {
    setCheckoutError(null);
    setRefusal(null);
    setChosen(plan.price_id);
    checkout.mutate(plan.price_id, {
      // The card keeps 'Loading...' while the browser leaves for the checkout page.
      onSuccess: (session) => navigateTo(session.checkout_url),
      onError: (error) => {
        setChosen(null);
        if (
          error instanceof SubscriptionError &&
          (error.code === ALREADY_SUBSCRIBED || error.code === NO_PLAN_NEEDED)
        ) {
          setRefusal(error);
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
            offered={offered}
            onSelect={() => select(plan)}
          />
        ))}
      </SimpleGrid>
    );
  }

  return (
    <SubscriptionShell
      title={staff || readOnly ? 'Plans' : 'Choose a plan'}
      width={960}
      actions={<SubscribeAccountBar />}
    >
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
      {refusal && (
        <Alert color="blue" role="alert" title={refusal.message}>
          {refusal.code === ALREADY_SUBSCRIBED && (
            <>
              Your plans are under <SubscriptionLink />.
            </>
          )}
        </Alert>
      )}
      {staff && (
        <Alert color="blue" title={NO_CHECKOUT_MESSAGES.noPlanNeeded}>
          {NO_CHECKOUT_MESSAGES.noPlanNeededText}
        </Alert>
      )}
      {readOnly && (
        <Alert color="blue" title={FORBIDDEN_MESSAGES.readOnly}>
          {NO_CHECKOUT_MESSAGES.readOnlyText}
        </Alert>
      )}
      {running.length > 0 && (
        <Alert
          color="blue"
          title={
            renews || !lastEnd
              ? NO_CHECKOUT_MESSAGES.renewing(heldNames, currentPlans.length)
              : NO_CHECKOUT_MESSAGES.canceled(heldNames, currentPlans.length, formatPeriodEnd(lastEnd)!)
          }
        >
          {renews || !lastEnd ? NO_CHECKOUT_MESSAGES.renewingText : NO_CHECKOUT_MESSAGES.canceledText}{' '}
          <SubscriptionLink />.
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
