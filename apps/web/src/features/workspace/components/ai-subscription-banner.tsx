import { Alert, Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { AI_SUBSCRIPTION_REQUIRED } from '../../auth';

/** Says why the AI generation buttons are disabled, where a subscription lapsed under a signed-in customer. */
export function AiSubscriptionBanner() {
  return (
    <Alert color="yellow" variant="light" mb="md" role="status" title={AI_SUBSCRIPTION_REQUIRED}>
      <Text size="sm">
        Generating keywords, subreddits and DMs needs an active plan; your projects and their results stay
        here.{' '}
        <Anchor component={Link} to="/subscribe" size="sm">
          Choose a plan
        </Anchor>
      </Text>
    </Alert>
  );
}
