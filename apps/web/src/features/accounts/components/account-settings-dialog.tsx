import { useState, type FormEvent } from 'react';
import { Alert, Button, Center, Group, Loader, Modal, NumberInput, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  ACCOUNT_DELAY_MAX_SECONDS,
  ACCOUNT_DELAY_MIN_SECONDS,
  ACCOUNT_TIMEZONES,
  SAVE_ACCOUNT_SETTINGS_FAILED,
  ZUpdateAccountSettingsRequest,
  type TAccountSettings,
  type TConnectedAccount,
  type TUpdateAccountSettingsRequest,
} from '@threadreach/contract';
import { WorkingScheduleFields } from '../../../components/ui/working-schedule-fields';
import { errorMessage } from '../../../lib/api-error';
import { useAccountSettings, useSaveAccountSettings } from '../hooks/use-accounts';

type TField = keyof TUpdateAccountSettingsRequest;

/** The contract names fields as the API does; the form says what they are called on screen. */
const FIELD_LABELS: [RegExp, string][] = [
  [/delay_range_min/g, 'Min delay'],
  [/delay_range_max/g, 'max delay'],
  [/working_hours_start/g, 'Working hours start'],
  [/working_hours_end/g, 'Working hours end'],
  [/working_days/g, 'Working days'],
  [/^timezone/, 'Timezone'],
];

function onScreen(message: string): string {
  const text = FIELD_LABELS.reduce((m, [pattern, label]) => m.replace(pattern, label), message);
  return text.charAt(0).toUpperCase() + text.slice(1);
}
type TErrors = Partial<Record<TField, string>>;

interface TValues {
  delay_range_min: number | string;
  delay_range_max: number | string;
  working_days: string[];
  working_hours_start: string;
  working_hours_end: string;
  timezone: string;
}

function valuesOf(settings: TAccountSettings): TValues {
  return {
    delay_range_min: settings.delay_range_min,
    delay_range_max: settings.delay_range_max,
    working_days: settings.working_days.map(String),
    working_hours_start: String(settings.working_hours_start),
    working_hours_end: String(settings.working_hours_end),
    timezone: settings.timezone,
  };
}

/** The form's values checked with the contract's schema: the request, or a message per field. */
export function validateAccountSettings(
  values: TValues,
): { ok: true; data: TUpdateAccountSettingsRequest } | { ok: false; errors: TErrors } {
  const number = (v: number | string) => (typeof v === 'number' ? v : v.trim() === '' ? NaN : Number(v));
  const parsed = ZUpdateAccountSettingsRequest.safeParse({
    delay_range_min: number(values.delay_range_min),
    delay_range_max: number(values.delay_range_max),
    working_days: values.working_days.map(Number).sort((a, b) => a - b),
    working_hours_start: Number(values.working_hours_start),
    working_hours_end: Number(values.working_hours_end),
    timezone: values.timezone,
  });
  if (parsed.success) return { ok: true, data: parsed.data };
  const errors: TErrors = {};
  for (const issue of parsed.error.issues) {
    const key = issue.path[0] as TField | undefined;
    if (key && !errors[key]) errors[key] = onScreen(issue.message);
  }
  return { ok: false, errors };
}

interface TAccountSettingsDialogProps {
  projectId: string;
  account: TConnectedAccount | null;
  readOnly: boolean;
  onClose: () => void;
}

/** The account settings dialog of spec section 2: delays, working hours, time zone and working days. */
export function AccountSettingsDialog({
  projectId,
  account,
  readOnly,
  onClose,
}: TAccountSettingsDialogProps) {
  return (
    <Modal
      closeButtonProps={{ 'aria-label': 'Close' }}
      opened={account !== null}
      onClose={onClose}
      title={account ? `Settings of ${account.account_display_name}` : 'Account settings'}
      centered
    >
      {account && (
        <SettingsLoader projectId={projectId} accountId={account.id} readOnly={readOnly} onDone={onClose} />
      )}
    </Modal>
  );
}

function SettingsLoader(props: {
  projectId: string;
  accountId: string;
  readOnly: boolean;
  onDone: () => void;
}) {
  const settings = useAccountSettings(props.accountId);
  if (settings.isPending) {
    return (
      <Center py="md">
        <Loader aria-label="Loading account settings" />
      </Center>
    );
  }
  if (settings.isError) {
    return (
      <Alert color="red" role="alert">
        {errorMessage(settings.error, 'Failed to load account settings')}
      </Alert>
    );
  }
  return <SettingsForm {...props} initial={valuesOf(settings.data)} />;
}

function SettingsForm({
  projectId,
  accountId,
  readOnly,
  onDone,
  initial,
}: {
  projectId: string;
  accountId: string;
  readOnly: boolean;
  onDone: () => void;
  initial: TValues;
}) {
  const save = useSaveAccountSettings(projectId, accountId);
  const [values, setValues] = useState<TValues>(initial);
  const [errors, setErrors] = useState<TErrors>({});

  const set = <K extends keyof TValues>(field: K, value: TValues[K]) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = validateAccountSettings(values);
    if (!result.ok) return setErrors(result.errors);
    save.mutate(result.data, {
      onSuccess: () => {
        notifications.show({ color: 'green', message: 'Account settings saved' });
        onDone();
      },
    });
  };

  const delay = (field: 'delay_range_min' | 'delay_range_max', label: string) => (
    <NumberInput
      label={label}
      description={`${ACCOUNT_DELAY_MIN_SECONDS}-${ACCOUNT_DELAY_MAX_SECONDS} seconds`}
      min={ACCOUNT_DELAY_MIN_SECONDS}
      max={ACCOUNT_DELAY_MAX_SECONDS}
      allowDecimal={false}
      allowNegative={false}
      clampBehavior="none"
      disabled={readOnly}
      value={values[field]}
      error={errors[field]}
      onChange={(value) => set(field, value)}
    />
  );

  return (
    <form onSubmit={submit} noValidate aria-label="Account settings">
      <Stack gap="sm">
        {save.isError && (
          <Alert color="red" role="alert" title={SAVE_ACCOUNT_SETTINGS_FAILED}>
            {errorMessage(save.error, '')}
          </Alert>
        )}
        <Text size="sm" c="dimmed">
          Send All and the agent space messages from this account by a random delay within this range, only on
          working days and hours in its time zone. A DM you send yourself goes at once, within the daily
          limit.
        </Text>
        <Group grow align="flex-start">
          {delay('delay_range_min', 'Min delay (seconds)')}
          {delay('delay_range_max', 'Max delay (seconds)')}
        </Group>
        <WorkingScheduleFields
          values={values}
          errors={errors}
          timezones={ACCOUNT_TIMEZONES}
          readOnly={readOnly}
          onChange={set}
        />
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending} disabled={readOnly}>
            Save Settings
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
