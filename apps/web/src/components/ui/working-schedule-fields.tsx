import { Checkbox, Group, NativeSelect, Text } from '@mantine/core';

export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

export const hourLabel = (hour: number) => `${String(hour).padStart(2, '0')}:00`;

/**
 * What the chosen hours mean, as sending reads them: the end hour is not included, equal hours are the
 * whole day, and an end before the start runs past midnight.
 */
export function workingHoursSummary(start: string, end: string): string {
  const [from, to] = [Number(start), Number(end)];
  if (from === to) return 'Same start and end: sends at any hour of a working day.';
  if (from < to) return `Sends from ${hourLabel(from)} until ${hourLabel(to)}.`;
  if (to === 0) return `Sends from ${hourLabel(from)} until midnight.`;
  return `Sends from ${hourLabel(from)} until ${hourLabel(to)} the next morning, overnight.`;
}

const HOUR_CHOICES = Array.from({ length: 24 }, (_, h) => ({ value: String(h), label: hourLabel(h) }));

/** A sender's working window as a form holds it: hours and days as the selects' strings. */
export interface TWorkingScheduleValues {
  working_hours_start: string;
  working_hours_end: string;
  timezone: string;
  working_days: string[];
}

export interface TWorkingScheduleFieldsProps {
  values: TWorkingScheduleValues;
  errors: Partial<Record<keyof TWorkingScheduleValues, string | undefined>>;
  timezones: readonly string[];
  readOnly: boolean;
  onChange: {
    (field: 'working_hours_start' | 'working_hours_end' | 'timezone', value: string): void;
    (field: 'working_days', value: string[]): void;
  };
}

/** Working hours, time zone and working days: the part accounts and the agent share in their settings. */
export function WorkingScheduleFields({
  values,
  errors,
  timezones,
  readOnly,
  onChange,
}: TWorkingScheduleFieldsProps) {
  return (
    <>
      <Group grow align="flex-start">
        <NativeSelect
          label="Working hours start"
          data={HOUR_CHOICES}
          disabled={readOnly}
          value={values.working_hours_start}
          error={errors.working_hours_start}
          onChange={(e) => onChange('working_hours_start', e.currentTarget.value)}
        />
        <NativeSelect
          label="Working hours end"
          data={HOUR_CHOICES}
          disabled={readOnly}
          value={values.working_hours_end}
          error={errors.working_hours_end}
          onChange={(e) => onChange('working_hours_end', e.currentTarget.value)}
        />
      </Group>
      <Text size="xs" c="dimmed" mt={-8} aria-live="polite" data-testid="working-hours-summary">
        {workingHoursSummary(values.working_hours_start, values.working_hours_end)}
      </Text>
      <NativeSelect
        label="Timezone"
        data={[...timezones]}
        disabled={readOnly}
        value={values.timezone}
        error={errors.timezone}
        onChange={(e) => onChange('timezone', e.currentTarget.value)}
      />
      <Checkbox.Group
        label="Working days"
        value={values.working_days}
        error={errors.working_days}
        onChange={(days) => onChange('working_days', days)}
      >
        <Group gap="sm" mt={6}>
          {WEEKDAYS.map((day, i) => (
            <Checkbox
              key={day}
              value={String(i + 1)}
              label={day.slice(0, 3)}
              aria-label={day}
              disabled={readOnly}
            />
          ))}
        </Group>
      </Checkbox.Group>
    </>
  );
}
