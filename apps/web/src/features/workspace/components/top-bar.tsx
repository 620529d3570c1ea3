import { Anchor, Badge, Box, Burger, Button, Flex, Group, Paper, Stack, Title } from '@mantine/core';
import { useClickOutside, useDisclosure, useWindowEvent } from '@mantine/hooks';
import { useId } from 'react';
import type { TProject } from '@threadreach/contract';
import { Link } from 'react-router';
import { DemoModeBadge } from '../../../components/ui/demo-mode-badge';
import { READ_ONLY_FLAG, logout, useAuth, useMe, useProfilesLimit, usePublicConfig } from '../../auth';
import { NewProjectButton, ProjectSelector } from '../../projects';

interface TTopBarProps {
  projects: TProject[];
  selectedProjectId: string | null;
  onSelectProject: (projectId: string) => void;
  onNewProject: () => void;
  /** Why New Project is disabled (limit reached, read-only), or null. */
  newProjectBlockReason: string | null;
}

function ProjectsBadge() {
  const auth = useAuth();
  const me = useMe();
  const profilesLimit = useProfilesLimit();
  const unlimited = auth.isModerator;
  if (!unlimited && profilesLimit <= 0) {
    return (
      <Anchor component={Link} to="/subscribe" fw={600}>
        Subscribe
      </Anchor>
    );
  }
  if (!me.data) return null;
  const limit = unlimited ? '∞' : String(me.data.profiles_limit);
  return (
    <Badge variant="light" size="lg" tt="none" style={{ flexShrink: 0 }}>
      {`Projects ${me.data.projects_used}/${limit}`}
    </Badge>
  );
}

/** The administration pages a moderator reaches; admins also the system logs (spec section 6). */
function adminPages(isAdmin: boolean): { to: string; label: string }[] {
  return [
    ...(isAdmin ? [{ to: '/logs', label: 'System Logs' }] : []),
    { to: '/stats', label: 'Statistics' },
    { to: '/credentials', label: 'Credentials' },
  ];
}

/** A customer with a plan reaches it (to change or cancel it) from every page of the workspace. */
function useShowsSubscription(): boolean {
  const auth = useAuth();
  const profilesLimit = useProfilesLimit();
  return !auth.isModerator && profilesLimit > 0;
}

/** Wide screens: the administration links, the subscription and Logout side by side. */
function InlineAccountLinks() {
  const auth = useAuth();
  const showsSubscription = useShowsSubscription();
  return (
    <Group gap="sm" wrap="nowrap" visibleFrom="lg">
      {auth.isModerator && (
        <Group gap="xs" component="nav" aria-label="Administration" wrap="nowrap">
          {adminPages(auth.isAdmin).map((page) => (
            <Anchor key={page.to} component={Link} to={page.to} style={{ whiteSpace: 'nowrap' }}>
              {page.label}
            </Anchor>
          ))}
        </Group>
      )}
      {showsSubscription && (
        <Anchor component={Link} to="/subscription" style={{ whiteSpace: 'nowrap' }}>
          Subscription
        </Anchor>
      )}
      <Button variant="default" onClick={() => void logout()}>
        Logout
      </Button>
    </Group>
  );
}

/**
 * Narrower screens: the same links and Logout behind a menu button, so none is cut off or pushed off
 * screen. A plain disclosure rather than Mantine's Menu, whose popover would weigh on every page's load.
 */
function AccountMenu() {
  const auth = useAuth();
  const showsSubscription = useShowsSubscription();
  const panelId = useId();
  const [opened, { toggle, close }] = useDisclosure(false);
  const ref = useClickOutside(close);
  useWindowEvent('keydown', (event) => {
    if (event.key === 'Escape') close();
  });
  return (
    <Box pos="relative" hiddenFrom="lg" ref={ref}>
      <Burger
        opened={opened}
        onClick={toggle}
        size="sm"
        aria-label="Menu"
        aria-expanded={opened}
        aria-controls={panelId}
      />
      {opened && (
        <Paper
          id={panelId}
          withBorder
          shadow="md"
          p="sm"
          pos="absolute"
          right={0}
          top="100%"
          mt={4}
          miw={180}
          style={{ zIndex: 200 }}
        >
          <Stack gap="sm">
            {auth.isModerator && (
              <Stack gap={6} component="nav" aria-label="Administration">
                {adminPages(auth.isAdmin).map((page) => (
                  <Anchor key={page.to} component={Link} to={page.to}>
                    {page.label}
                  </Anchor>
                ))}
              </Stack>
            )}
            {showsSubscription && (
              <Anchor component={Link} to="/subscription">
                Subscription
              </Anchor>
            )}
            <Button variant="default" onClick={() => void logout()}>
              Logout
            </Button>
          </Stack>
        </Paper>
      )}
    </Box>
  );
}

export function TopBar({
  projects,
  selectedProjectId,
  onSelectProject,
  onNewProject,
  newProjectBlockReason,
}: TTopBarProps) {
  const auth = useAuth();
  const config = usePublicConfig();
  // Everything keeps its width but the project selector. From lg, where the admin links sit inline, the
  // bar stays one row and the selector narrows; below, what does not fit wraps onto a row of its own.
  return (
    <Flex
      mih={64}
      px="md"
      py={8}
      justify="space-between"
      align="center"
      gap="sm"
      wrap={{ base: 'wrap', lg: 'nowrap' }}
    >
      <Group gap="sm" flex={{ base: '0 1 auto', lg: 'none' }}>
        <Title order={1} size="h3">
          Threadreach
        </Title>
        {config.data?.demo_mode && <DemoModeBadge />}
        {auth.isReadOnly && (
          <Badge color="gray" variant="outline" tt="none" style={{ flexShrink: 0 }}>
            {READ_ONLY_FLAG}
          </Badge>
        )}
      </Group>
      <Group gap="sm" style={{ flex: '1 1 auto', justifyContent: 'flex-end' }}>
        {projects.length > 0 && (
          <ProjectSelector
            projects={projects}
            value={selectedProjectId}
            onChange={onSelectProject}
            showOwner={auth.isAdmin}
          />
        )}
        <NewProjectButton
          label="New Project"
          variant="light"
          blockReason={newProjectBlockReason}
          onClick={onNewProject}
        />
        <ProjectsBadge />
        <InlineAccountLinks />
        <AccountMenu />
      </Group>
    </Flex>
  );
}
