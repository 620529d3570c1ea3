import { useState, type FormEvent } from 'react';
import {
  Alert,
  Button,
  Code,
  CopyButton,
  Group,
  Loader,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { WEBHOOK_SIGNATURE_HEADER, WEBHOOK_TIMESTAMP_HEADER, type TWebhook } from '@threadreach/contract';
import { errorMessage } from '../../../lib/api-error';
import { useTestWebhook, useUpdateWebhook, useWebhook } from '../hooks/use-webhook';

export const WEBHOOK_MESSAGES = {
  saveError: 'Failed to save the webhook',
  saved: 'Webhook saved',
  removed: 'Webhook removed',
  testError: 'Webhook test failed',
} as const;

interface TWebhookFormProps {
  projectId: string;
  readOnly: boolean;
  webhook: TWebhook;
}

function WebhookForm({ projectId, readOnly, webhook }: TWebhookFormProps) {
  const [url, setUrl] = useState(webhook.url ?? '');
  const [enabled, setEnabled] = useState(webhook.enabled);
  const [secret, setSecret] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const update = useUpdateWebhook(projectId);
  const test = useTestWebhook(projectId);
  const busy = update.isPending || test.isPending;

  const save = (rotate: boolean, remove = false) => {
    setError(null);
    setSecret(null);
    const target = remove ? null : url.trim();
    if (target === '') {
      setError('Enter the address that receives new leads');
      return;
    }
    update.mutate(
      { url: target, enabled, rotate_secret: rotate },
      {
        onSuccess: (answer) => {
          if (answer.secret) setSecret(answer.secret);
          if (remove) setUrl('');
          notifications.show({
            color: 'green',
            message: remove ? WEBHOOK_MESSAGES.removed : WEBHOOK_MESSAGES.saved,
          });
        },
        onError: (e) => setError(`${WEBHOOK_MESSAGES.saveError}: ${errorMessage(e, '')}`),
      },
    );
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    save(false);
  };

  const sendTest = () =>
    test.mutate(undefined, {
      onSuccess: (answer) => notifications.show({ color: 'green', message: answer.message }),
      onError: (e) =>
        notifications.show({
          color: 'red',
          message: `${WEBHOOK_MESSAGES.testError}: ${errorMessage(e, '')}`,
        }),
    });

  return (
    <form onSubmit={onSubmit} aria-label="Lead webhook" noValidate>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          New leads are POSTed to this address as JSON, signed with HMAC-SHA256 over the timestamp and the raw
          body (headers <Code>{WEBHOOK_SIGNATURE_HEADER}</Code> and <Code>{WEBHOOK_TIMESTAMP_HEADER}</Code>).
        </Text>
        <TextInput
          label="Webhook URL"
          placeholder="https://example.com/hooks/leads"
          value={url}
          disabled={readOnly || busy}
          onChange={(e) => setUrl(e.currentTarget.value)}
        />
        <Switch
          label="Enabled"
          checked={enabled}
          disabled={readOnly || busy}
          onChange={(e) => setEnabled(e.currentTarget.checked)}
        />
        {webhook.url && (
          <Text size="xs" c="dimmed">
            {webhook.secret_last4 ? `Signing secret ends in ${webhook.secret_last4}. ` : ''}
            {webhook.last_delivery_at
              ? `Last delivery ${new Date(webhook.last_delivery_at).toLocaleString()}: ${webhook.last_status ?? 'unknown'}.`
              : 'No delivery yet.'}
          </Text>
        )}
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        {secret && (
          <Alert color="yellow" title="Signing secret (shown only once)" role="status">
            <Group gap="xs" wrap="nowrap">
              <Code data-testid="webhook-secret" style={{ wordBreak: 'break-all' }}>
                {secret}
              </Code>
              <CopyButton value={secret}>
                {({ copied, copy }) => (
                  <Button size="compact-xs" variant="light" onClick={copy}>
                    {copied ? 'Copied' : 'Copy'}
                  </Button>
                )}
              </CopyButton>
            </Group>
          </Alert>
        )}
        <Group gap="xs">
          <Button type="submit" loading={update.isPending} disabled={readOnly || test.isPending}>
            Save Webhook
          </Button>
          {webhook.url && (
            <>
              <Button variant="default" disabled={readOnly || busy} onClick={() => save(true)}>
                Rotate Secret
              </Button>
              <Button
                variant="default"
                loading={test.isPending}
                disabled={readOnly || update.isPending}
                onClick={sendTest}
              >
                Send Test
              </Button>
              <Button
                variant="subtle"
                color="red"
                disabled={readOnly || busy}
                onClick={() => save(false, true)}
              >
                Remove
              </Button>
            </>
          )}
        </Group>
      </Stack>
    </form>
  );
}

/** The project's lead webhook: address, on/off, secret rotation; the secret is shown once after a save. */
export function WebhookSettings({ projectId, readOnly }: { projectId: string; readOnly: boolean }) {
  const webhook = useWebhook(projectId);
  if (webhook.isPending) return <Loader size="sm" aria-label="Loading webhook" />;
  if (webhook.isError) {
    return (
      <Alert color="red" role="alert">
        {webhook.error.message}
      </Alert>
    );
  }
  return <WebhookForm projectId={projectId} readOnly={readOnly} webhook={webhook.data} />;
}
