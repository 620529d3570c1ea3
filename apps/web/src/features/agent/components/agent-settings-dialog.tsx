import { useState, type FormEvent } from 'react';
import { Alert, Button, Group, Modal, NumberInput, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  ACCOUNT_DAILY_MESSAGE_LIMIT,
  AGENT_DAILY_DM_LIMIT_MAX,
  AGENT_DAILY_DM_LIMIT_MIN,
  AGENT_DELAY_CEILING,
  AGENT_DELAY_MAX_FLOOR,
  AGENT_DELAY_MIN_FLOOR,
  AGENT_TEXTS,
  AGENT_TIMEZONES,
  ZUpdateAgentSettingsRequest,
  type TAgentSettings,
  type TUpdateAgentSettingsRequest,
} from '@threadreach/contract';
import { WorkingScheduleFields } from '../../../components/ui/working-schedule-fields';
import { errorMessage } from '../../../lib/api-error';
import { useUpdateAgentSettings } from '../hooks/use-agent';

type TField = keyof TUpdateAgentSettingsRequest;
type TErrors = Partial<Record<TField, string>>;

export interface TAgentSettingsValues {
  daily_dm_limit_per_profile: number | string;
  delay_range_min: number | string;
  delay_range_max: number | string;
  working_days: string[];
  working_hours_start: string;
  working_hours_end: string;
  timezone: string;
  min_intent_score: number | string;
}

function valuesOf(settings: TAgentSettings): TAgentSettingsValues {
  return {
    daily_dm_limit_per_profile: settings.daily_dm_limit_per_profile,
    delay_range_min: settings.delay_range_min,
    delay_range_max: settings.delay_range_max,
    working_days: settings.working_days.map(String),
    working_hours_start: String(settings.working_hours_start),
    working_hours_end: String(settings.working_hours_end),
    timezone: settings.timezone,
    min_intent_score: settings.min_intent_score,
  };
}

/** The contract names fields as the API does; the form says what they are called on screen. */
const FIELD_LABELS: [RegExp, string][] = [
  [/daily_dm_limit_per_profile/g, 'Daily DMs per profile'],
  [/delay_range_min/g, 'Min delay'],
  [/delay_range_max/g, 'max delay'],
  [/working_hours_start/g, 'Working hours start'],
  [/working_hours_end/g, 'Working hours end'],
  [/working_days/g, 'Working days'],
  [/min_intent_score/g, 'Minimum intent score'],
  [/^timezone/, 'Timezone'],
];

/** The contract's messages start with 'Error updating agent settings: '; beside a field the reason is enough. */
function reasonOf(message: string): string {
  const reason = FIELD_LABELS.reduce(
    (text, [pattern, label]) => text.replace(pattern, label),
    message.replace(`${AGENT_TEXTS.updateSettingsFailed}: `, ''),
  );
  return reason.charAt(0).toUpperCase() + reason.slice(1);
}

/** The form checked with the contract's own schema: the request, or one message per field. */
export function validateAgentSettings(
  values: TAgentSettingsValues,
): { ok: true; data: TUpdateAgentSettingsRequest } | { ok: false; errors: TErrors } {
  const number = (v: number | string) => (typeof v === 'number' ? v : v.trim() === '' ? NaN : Number(v));
  const parsed = ZUpdateAgentSettingsRequest.safeParse({
    daily_dm_limit_per_profile: number(values.daily_dm_limit_per_profile),
    delay_range_min: number(values.delay_range_min),
    delay_range_max: number(values.delay_range_max),
    working_days: values.working_days.map(Number).sort((a, b) => a - b),
    working_hours_start: Number(values.working_hours_start),
    working_hours_end: Number(values.working_hours_end),
    timezone: values.timezone,
    min_intent_score: number(values.min_intent_score),
  });
  if (parsed.success) return { ok: true, data: parsed.data };
  const errors: TErrors = {};
  for (const issue of parsed.error.issues) {
    const key = issue.path[0] as TField | undefined;
    if (key && !errors[key]) errors[key] = reasonOf(issue.message);
  }
  return { ok: false, errors };
}

export interface TAgentSettingsDialogProps {
  projectId: string;
  settings: TAgentSettings;
  opened: boolean;
  readOnly: boolean;
  onClose: () => void;
}

/** Step 4's agent settings dialog: daily DMs per account, delays, working days and hours, time zone. */
export function AgentSettingsDialog({ opened, onClose, ...props }: TAgentSettingsDialogProps) {
  return (
    <Modal
      closeButtonProps={{ 'aria-label': 'Close' }}
      opened={opened}
      onClose={onClose}
      title="Agent Settings"
      centered
    >
      {/* Mounted per opening, so the form starts from the saved settings each time. */}
      {opened && <AgentSettingsForm {...props} onDone={onClose} />}
    </Modal>
  );
}

function AgentSettingsForm({
  projectId,
  settings,
  readOnly,
  onDone,
}: Omit<TAgentSettingsDialogProps, 'opened' | 'onClose'> & { onDone: () => void }) {
  const save = useUpdateAgentSettings(projectId);
  const [values, setValues] = useState(() => valuesOf(settings));
  const [errors, setErrors] = useState<TErrors>({});

  const set = <K extends keyof TAgentSettingsValues>(field: K, value: TAgentSettingsValues[K]) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = validateAgentSettings(values);
    if (!result.ok) return setErrors(result.errors);
    save.mutate(result.data, {
      onSuccess: () => {
        notifications.show({ color: 'green', message: 'Agent settings saved' });
        onDone();
      },
    });
  };

  const number = (
    field: TField & keyof TAgentSettingsValues,
    label: string,
    min: number,
    max: number,
    note = '',
  ) => (
    <NumberInput
      label={label}
      description={`${min}-${max}${note}`}
      min={min}
      max={max}
      allowDecimal={false}
      allowNegative={false}
      clampBehavior="none"
      disabled={readOnly}
      value={values[field] as number | string}
      error={errors[field]}
      onChange={(value) => set(field, value)}
    />
  );

  return (
    <form onSubmit={submit} noValidate aria-label="Agent settings">
      <Stack gap="sm">
        {save.isError && (
          <Alert color="red" role="alert" title={AGENT_TEXTS.updateSettingsFailed}>
            {reasonOf(errorMessage(save.error, ''))}
          </Alert>
        )}
        <Text size="sm" c="dimmed">
          The agent hands DMs over for sending only on these working days and hours in this time zone; each
          account then sends them within its own working hours. It drafts and queues at most the daily number
          per connected account, and writes to and sends to only leads whose intent reaches the minimum, plus
          any DM you edited and saved. Its messages are spaced by this delay range or the account&apos;s own
          delays, whichever is longer.
        </Text>
        {number(
          'daily_dm_limit_per_profile',
          'Daily DMs per profile',
          AGENT_DAILY_DM_LIMIT_MIN,
          AGENT_DAILY_DM_LIMIT_MAX,
          `; each account also sends at most ${ACCOUNT_DAILY_MESSAGE_LIMIT} messages a day, and the lower number applies`,
        )}
        <Group grow align="flex-start">
          {number('delay_range_min', 'Min delay (seconds)', AGENT_DELAY_MIN_FLOOR, AGENT_DELAY_CEILING)}
          {number('delay_range_max', 'Max delay (seconds)', AGENT_DELAY_MAX_FLOOR, AGENT_DELAY_CEILING)}
        </Group>
        <WorkingScheduleFields
          values={values}
          errors={errors}
          timezones={AGENT_TIMEZONES}
          readOnly={readOnly}
          onChange={set}
        />
        {number('min_intent_score', 'Minimum intent score', 0, 100)}
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
