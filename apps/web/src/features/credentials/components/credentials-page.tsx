import { useState } from 'react';
import { Container, Stack, Tabs } from '@mantine/core';
import { AdminPageHeading, ModeratorOnly } from '../../auth';
import { DEFAULT_CREDENTIAL_FILTERS, listParamsOf, type TCredentialFilters } from '../credential-filters';
import { useCredentials } from '../hooks/use-credentials';
import { CredentialsTab } from './credentials-tab';
import { ProxyPoolTab } from './proxy-pool-tab';

type TTab = 'credentials' | 'proxy-pool';

function CredentialsAdmin() {
  const [tab, setTab] = useState<TTab>('credentials');
  const [filters, setFilters] = useState<TCredentialFilters>(DEFAULT_CREDENTIAL_FILTERS);
  // Same query as the tab's table (shared through the cache), for the count on the tab.
  const list = useCredentials(listParamsOf(filters));
  const count = list.data?.total;

  return (
    <Container size="xl" py="xl">
      <Stack>
        <AdminPageHeading title="Reddit API Credentials" />
        <Tabs
          value={tab}
          onChange={(value) => setTab((value as TTab | null) ?? 'credentials')}
          keepMounted={false}
        >
          <Tabs.List>
            <Tabs.Tab value="credentials">
              {count === undefined ? 'Credentials' : `Credentials (${count})`}
            </Tabs.Tab>
            <Tabs.Tab value="proxy-pool">Proxy Pool</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="credentials" pt="md">
            <CredentialsTab filters={filters} onFiltersChange={setFilters} />
          </Tabs.Panel>
          <Tabs.Panel value="proxy-pool" pt="md">
            <ProxyPoolTab />
          </Tabs.Panel>
        </Tabs>
      </Stack>
    </Container>
  );
}

/** /credentials: Reddit API credentials and the proxy pool, for moderators and admins. */
export function CredentialsPage() {
  return (
    <ModeratorOnly>
      <CredentialsAdmin />
    </ModeratorOnly>
  );
}
