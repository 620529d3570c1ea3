import { Checkbox, Group, NativeSelect } from '@mantine/core';

export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

export const hourLabel = (hour: number) => `${String(hour).padStart(2, '0')}:00`;

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
