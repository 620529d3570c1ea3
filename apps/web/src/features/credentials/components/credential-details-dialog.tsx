import type { ReactNode } from 'react';
import { Alert, Button, Code, Divider, Group, Loader, Modal, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { TConnectionTestResult, TCredentialDetailed } from '@threadreach/contract';
import { DisabledReason } from '../../../components/ui/disabled-reason';
import { TYPE_LABELS, formatProxyLocation, formatTimestamp } from '../credential-format';
import {
  CREDENTIAL_MESSAGES,
  NO_PROXY_PROVIDER_TEXT,
  detailsErrorMessage,
  failureMessage,
} from '../credential-messages';
import { useCredentialDetails, useReplaceProxy, useTestConnection } from '../hooks/use-credentials';
import { EfficiencyMetrics, ProxyHealthBadge } from './credential-metrics';

interface TCredentialDetailsDialogProps {
  opened: boolean;
  credentialId: string | null;
  onClose: () => void;
}

/** Details of one credential: actions and their result, basic info, proxy configuration, efficiency, proxy health. */
export function CredentialDetailsDialog({ opened, credentialId, onClose }: TCredentialDetailsDialogProps) {
  return (
    <Modal
      closeButtonProps={{ 'aria-label': 'Close' }}
      opened={opened && credentialId !== null}
      onClose={onClose}
      title="Credential Details"
      centered
      size="xl"
    >
      {credentialId && <CredentialDetails key={credentialId} credentialId={credentialId} />}
    </Modal>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap="xs" component="section" aria-label={title}>
      <Title order={3} size="h5">
        {title}
      </Title>
      {children}
    </Stack>
  );
}

function Facts({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <Table variant="vertical" layout="fixed" withTableBorder>
      <Table.Tbody>
        {rows.map(([label, value]) => (
          <Table.Tr key={label}>
            <Table.Th w={200} scope="row">
              {label}
            </Table.Th>
            {/* A 100-character account name or a description without spaces wraps inside the dialog. */}
            <Table.Td style={{ overflowWrap: 'anywhere' }}>{value}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function CredentialDetails({ credentialId }: { credentialId: string }) {
  const details = useCredentialDetails(credentialId);
  if (details.isPending) return <Loader aria-label="Loading credential details" />;
  if (details.isError) {
    return (
      <Alert color="red" role="alert">
        {detailsErrorMessage(details.error)}
      </Alert>
    );
  }
  return <CredentialDetailsBody credential={details.data} />;
}

function CredentialDetailsBody({ credential }: { credential: TCredentialDetailed }) {
  const stats = credential.efficiency_stats;
  return (
    <Stack gap="md">
      {/* First, so Test Connection's result shows at the top, without scrolling. */}
      <CredentialActions
        credentialId={credential.id}
        proxyProviderConfigured={credential.proxy_provider_configured}
      />
      <Divider />
      <Section title="Basic Information">
        <Facts
          rows={[
            ['Account Name', credential.account_name],
            ['Type', TYPE_LABELS[credential.type]],
            ['Client ID Prefix', <Code key="prefix">{credential.client_id_prefix}</Code>],
            ['Enabled', credential.enabled ? 'Yes' : 'No'],
            ['Created', formatTimestamp(credential.created_at, '—')],
            ['Last Used', formatTimestamp(credential.last_used)],
            ['Description', credential.description || '—'],
          ]}
        />
      </Section>
      <Section title="Proxy Configuration">
        <Facts
          rows={[
            ['Location', formatProxyLocation(credential.proxy_preferences)],
            [
              'Proxy',
              credential.proxy_masked ? (
                <Code key="proxy">{credential.proxy_masked}</Code>
              ) : (
                'Direct connection (no proxy)'
              ),
            ],
          ]}
        />
      </Section>
      <Section title="Efficiency Metrics">
        <EfficiencyMetrics stats={stats} />
      </Section>
      <Section title="Proxy Health">
        <Facts
          rows={[
            ['Status', <ProxyHealthBadge key="health" status={stats.proxy_health_status} />],
            ['Replacements', String(stats.proxy_replacement_count)],
            ['Last Health Check', formatTimestamp(stats.last_health_check)],
            ['Last Proxy Error', stats.last_proxy_error ?? 'None'],
          ]}
        />
      </Section>
    </Stack>
  );
}

/** The outcome of Test Connection, success or failure spelled out, with the response time. */
export function ConnectionTestResult({ result }: { result: TConnectionTestResult }) {
  const ok = result.can_connect;
  return (
    <Alert
      color={ok ? 'green' : 'red'}
      role="status"
      title={ok ? 'Connection test: success' : 'Connection test: failure'}
    >
      <Stack gap={2}>
        <Text size="sm">{`Response time: ${result.response_time_ms} ms`}</Text>
        {result.error && (
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>{`Error: ${result.error}`}</Text>
        )}
      </Stack>
    </Alert>
  );
}

function CredentialActions({
  credentialId,
  proxyProviderConfigured,
}: {
  credentialId: string;
  proxyProviderConfigured: boolean;
}) {
  const test = useTestConnection(credentialId);
  const replace = useReplaceProxy(credentialId);

  const replaceProxy = () =>
    replace.mutate(undefined, {
      onSuccess: (updated) =>
        notifications.show({
          color: 'green',
          title: 'Proxy replaced',
          message: updated.proxy_masked ? `New proxy: ${updated.proxy_masked}` : 'Now connecting directly',
        }),
      onError: (error) =>
        notifications.show({
          color: 'red',
          message: failureMessage(CREDENTIAL_MESSAGES.replaceProxyFailed, error),
        }),
    });

  return (
    <Section title="Actions">
      <Group>
        <Button onClick={() => test.mutate()} loading={test.isPending}>
          Test Connection
        </Button>
        {/* Without a provider the server can only refuse (409): say why instead of asking. */}
        <DisabledReason why={proxyProviderConfigured ? null : NO_PROXY_PROVIDER_TEXT}>
          <Button
            variant="light"
            color="orange"
            onClick={replaceProxy}
            loading={replace.isPending}
            disabled={!proxyProviderConfigured}
          >
            Replace Proxy
          </Button>
        </DisabledReason>
      </Group>
      {test.isSuccess && <ConnectionTestResult result={test.data} />}
      {test.isError && (
        <Alert color="red" role="alert" title={CREDENTIAL_MESSAGES.testFailed}>
          {test.error.message}
        </Alert>
      )}
    </Section>
  );
}
