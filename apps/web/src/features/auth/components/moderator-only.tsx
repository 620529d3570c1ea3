import type { ReactNode } from 'react';
import { Alert, Anchor, Container, Stack } from '@mantine/core';
import { Link } from 'react-router';
import { useAuth } from '../hooks/use-auth';

export const ACCESS_DENIED_TEXT =
  'Access Denied - This page is only accessible to administrators and moderators.';

/**
 * Renders its children for moderators and admins, the Access Denied view for everyone else.
 * Shared by the admin pages and the credentials page, so neither feature loads the other's chunk.
 */
export function ModeratorOnly({ children }: { children: ReactNode }) {
  const { isModerator } = useAuth();
  if (isModerator) return <>{children}</>;
  return (
    <Container size="sm" py="xl">
      <Stack>
        <Alert color="red" role="alert">
          {ACCESS_DENIED_TEXT}
        </Alert>
        <Anchor component={Link} to="/">
          Back to Dashboard
        </Anchor>
      </Stack>
    </Container>
  );
}
