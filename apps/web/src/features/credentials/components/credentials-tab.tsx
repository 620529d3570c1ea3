import { useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  Loader,
  NativeSelect,
  Pagination,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { plural, type TCredential } from '@threadreach/contract';
import {
  TYPE_FILTER_OPTIONS,
  listParamsOf,
  type TCredentialFilters,
  type TCredentialTypeFilter,
} from '../credential-filters';
import { TYPE_LABELS, formatProxyLocation, formatTimestamp, shortId } from '../credential-format';
import { CREDENTIAL_MESSAGES, failureMessage, LAST_SEARCH_CREDENTIAL_QUESTION } from '../credential-messages';
import { AskFirst } from '../../../components/ui/ask-first';
import { CREDENTIALS_PAGE_SIZE, useCredentials, useToggleCredential } from '../hooks/use-credentials';
import { CredentialDetailsDialog } from './credential-details-dialog';
import { CredentialFormDialog } from './credential-form-dialog';
import { DeleteCredentialDialog } from './delete-credential-dialog';

/** Long account names and proxy places end in an ellipsis (full text on hover) beyond these widths. */
const ACCOUNT_MAX_WIDTH = 220;
const LOCATION_MAX_WIDTH = 200;

interface TCredentialsTabProps {
  filters: TCredentialFilters;
  onFiltersChange: (filters: TCredentialFilters) => void;
}

/** A dialog and what it shows; the subject stays while the dialog fades out. */
interface TDialogState<T> {
  opened: boolean;
  subject: T;
}

/** The Credentials tab: filters, the paginated table, and the add, edit, details and delete dialogs. */
export function CredentialsTab({ filters, onFiltersChange }: TCredentialsTabProps) {
  const list = useCredentials(listParamsOf(filters));
  const toggle = useToggleCredential();
  const [form, setForm] = useState<TDialogState<TCredential | null>>({ opened: false, subject: null });
  const [details, setDetails] = useState<TDialogState<string | null>>({ opened: false, subject: null });
  const [deleting, setDeleting] = useState<TDialogState<TCredential | null>>({
    opened: false,
    subject: null,
  });

  const items = list.data?.items ?? [];
  const total = list.data?.total ?? 0;
  const pageCount = Math.max(1, Math.ceil(total / CREDENTIALS_PAGE_SIZE));

  /** The last row of a page left it: show the page before. */
  const onRowRemoved = () => {
    if (items.length === 1 && filters.page > 1) onFiltersChange({ ...filters, page: filters.page - 1 });
  };

  // Disabling the last enabled search credential stops every customer's search: that asks first.
  const enabledSearch = useCredentials({
    credentialType: 'search',
    includeDisabled: false,
    limit: 1,
    offset: 0,
  });
  const isLastSearch = (c: TCredential) =>
    c.type === 'search' && c.enabled && enabledSearch.data?.total === 1;

  const toggleEnabled = async (credential: TCredential) => {
    const enabled = !credential.enabled;
    try {
      await toggle.mutateAsync({ id: credential.id, enabled });
    } catch (error) {
      notifications.show({
        color: 'red',
        message: failureMessage(CREDENTIAL_MESSAGES.toggleFailed, error),
      });
      return;
    }
    notifications.show({ color: 'green', message: enabled ? 'Credential enabled' : 'Credential disabled' });
    if (!enabled && !filters.includeDisabled) onRowRemoved();
  };

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <Group align="flex-end">
          <NativeSelect
            label="Type"
            data={TYPE_FILTER_OPTIONS}
            value={filters.type}
            onChange={(e) =>
              onFiltersChange({ ...filters, type: e.currentTarget.value as TCredentialTypeFilter, page: 1 })
            }
          />
          <Checkbox
            label="Include Disabled"
            checked={filters.includeDisabled}
            onChange={(e) =>
              onFiltersChange({ ...filters, includeDisabled: e.currentTarget.checked, page: 1 })
            }
            mb={8}
          />
        </Group>
        <Group>
          <Button variant="default" onClick={() => void list.refetch()} loading={list.isFetching}>
            Refresh
          </Button>
          <Button onClick={() => setForm({ opened: true, subject: null })}>+ Add Credential</Button>
        </Group>
      </Group>

      {list.isError && (
        <Alert color="red" role="alert">
          {failureMessage(CREDENTIAL_MESSAGES.fetchFailed, list.error)}
        </Alert>
      )}
      {list.isPending ? (
        <Loader aria-label="Loading credentials" />
      ) : items.length === 0 ? (
        !list.isError && <Text c="dimmed">No credentials found.</Text>
      ) : (
        <Table.ScrollContainer minWidth={900}>
          <Table striped highlightOnHover aria-label="Credentials">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Account</Table.Th>
                <Table.Th>Type</Table.Th>
                <Table.Th>Proxy Location</Table.Th>
                <Table.Th>Usage</Table.Th>
                <Table.Th>Last Used</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((c) => (
                <Table.Tr key={c.id}>
                  <Table.Td>
                    <Text fw={600} maw={ACCOUNT_MAX_WIDTH} truncate="end" title={c.account_name}>
                      {c.account_name}
                    </Text>
                    <Text size="xs" c="dimmed" ff="monospace" title={c.id}>
                      {shortId(c.id)}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    {/* Never squeezed: Search and Send must stay readable whatever else is long. */}
                    <Badge
                      variant="outline"
                      tt="none"
                      color={c.type === 'send' ? 'grape' : 'blue'}
                      miw="max-content"
                    >
                      {TYPE_LABELS[c.type]}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Text
                      size="sm"
                      maw={LOCATION_MAX_WIDTH}
                      truncate="end"
                      title={formatProxyLocation(c.proxy_preferences)}
                    >
                      {formatProxyLocation(c.proxy_preferences)}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{`${c.usage_stats.total_requests} requests`}</Text>
                    <Text size="xs" c="dimmed">
                      {plural(c.usage_stats.active_clients, 'active client')}
                    </Text>
                  </Table.Td>
                  <Table.Td>{formatTimestamp(c.last_used)}</Table.Td>
                  <Table.Td>
                    <Badge color={c.enabled ? 'green' : 'gray'} variant="light" tt="none" miw="max-content">
                      {c.enabled ? 'Enabled' : 'Disabled'}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      <Button
                        size="compact-xs"
                        variant="subtle"
                        onClick={() => setDetails({ opened: true, subject: c.id })}
                      >
                        Details
                      </Button>
                      <Button
                        size="compact-xs"
                        variant="subtle"
                        onClick={() => setForm({ opened: true, subject: c })}
                      >
                        Edit
                      </Button>
                      {isLastSearch(c) ? (
                        <AskFirst
                          label="Disable"
                          question={LAST_SEARCH_CREDENTIAL_QUESTION}
                          confirmLabel="Disable"
                          declineLabel="Keep enabled"
                          size="compact-xs"
                          variant="subtle"
                          color="orange"
                          wrap="wrap"
                          pending={toggle.isPending && toggle.variables?.id === c.id}
                          onConfirm={(close) => toggleEnabled(c).finally(close)}
                        />
                      ) : (
                        <Button
                          size="compact-xs"
                          variant="subtle"
                          color={c.enabled ? 'orange' : 'green'}
                          onClick={() => void toggleEnabled(c)}
                          loading={toggle.isPending && toggle.variables?.id === c.id}
                        >
                          {c.enabled ? 'Disable' : 'Enable'}
                        </Button>
                      )}
                      <Button
                        size="compact-xs"
                        variant="subtle"
                        color="red"
                        onClick={() => setDeleting({ opened: true, subject: c })}
                      >
                        Delete
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {pageCount > 1 && (
        <Group component="nav" aria-label="Credentials pages">
          <Pagination
            total={pageCount}
            value={Math.min(filters.page, pageCount)}
            onChange={(page) => onFiltersChange({ ...filters, page })}
          />
        </Group>
      )}

      <CredentialFormDialog
        opened={form.opened}
        onClose={() => setForm((f) => ({ ...f, opened: false }))}
        credential={form.subject}
      />
      <CredentialDetailsDialog
        opened={details.opened}
        credentialId={details.subject}
        onClose={() => setDetails((d) => ({ ...d, opened: false }))}
      />
      <DeleteCredentialDialog
        opened={deleting.opened}
        credential={deleting.subject}
        onClose={() => setDeleting((d) => ({ ...d, opened: false }))}
        onDeleted={onRowRemoved}
      />
    </Stack>
  );
}
