import { useState, type FormEvent } from 'react';
import {
  Alert,
  Button,
  Checkbox,
  Fieldset,
  Group,
  Modal,
  NativeSelect,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  CREDENTIAL_ACCOUNT_NAME_MAX,
  CREDENTIAL_CLIENT_ID_MAX,
  CREDENTIAL_DESCRIPTION_MAX,
  CREDENTIAL_SECRET_MAX,
  PROXY_CITY_MAX,
  PROXY_COUNTRY_MAX,
  PROXY_STATE_MAX,
  type TCredential,
  type TCredentialType,
} from '@threadreach/contract';
import {
  EMPTY_CREDENTIAL_FORM,
  buildCreateRequest,
  buildUpdateRequest,
  formValuesOf,
  hasRequiredCreateFields,
  type TCredentialFormErrors,
  type TCredentialFormField,
  type TCredentialFormValues,
} from '../credential-form';
import { CREDENTIAL_MESSAGES, failureMessage } from '../credential-messages';
import { useCreateCredential, useUpdateCredential } from '../hooks/use-credentials';

export const KEEP_SECRET_PLACEHOLDER = 'leave empty to keep current';

const TYPE_OPTIONS: { value: TCredentialType; label: string }[] = [
  { value: 'search', label: 'Search (read-only)' },
  { value: 'send', label: 'Send (OAuth)' },
];

interface TCredentialFormDialogProps {
  opened: boolean;
  onClose: () => void;
  /** The credential to edit; without one the dialog adds a new credential. */
  credential?: TCredential | null;
}

/** Add Credential and Edit Credential, validated with the contract's request schemas. */
export function CredentialFormDialog({ opened, onClose, credential }: TCredentialFormDialogProps) {
  return (
    <Modal
      closeButtonProps={{ 'aria-label': 'Close' }}
      opened={opened}
      onClose={onClose}
      title={credential ? 'Edit Credential' : 'Add Credential'}
      centered
      size="lg"
    >
      <CredentialForm key={credential?.id ?? 'new'} credential={credential ?? null} onDone={onClose} />
    </Modal>
  );
}

function CredentialForm({ credential, onDone }: { credential: TCredential | null; onDone: () => void }) {
  const isEdit = credential !== null;
  const create = useCreateCredential();
  const update = useUpdateCredential();
  const [values, setValues] = useState<TCredentialFormValues>(() =>
    credential ? formValuesOf(credential) : EMPTY_CREDENTIAL_FORM,
  );
  const [errors, setErrors] = useState<TCredentialFormErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const pending = create.isPending || update.isPending;

  const set = <K extends TCredentialFormField>(field: K, value: TCredentialFormValues[K]) => {
    setValues((v) => ({ ...v, [field]: value }));
    if (errors[field]) setErrors((e) => ({ ...e, [field]: undefined }));
  };

  /** Value, error and change handler of a text input. */
  const text = (field: Exclude<TCredentialFormField, 'type' | 'enabled'>) => ({
    value: values[field],
    error: errors[field],
    onChange: (e: { currentTarget: { value: string } }) => set(field, e.currentTarget.value),
  });

  const onSuccess = (message: string) => () => {
    notifications.show({ color: 'green', message });
    onDone();
  };

  const submitUpdate = (id: string) => {
    const result = buildUpdateRequest(values);
    if (!result.ok) return setErrors(result.errors);
    update.mutate(
      { id, body: result.data },
      {
        onSuccess: onSuccess('Credential updated'),
        onError: (error) => setFormError(failureMessage(CREDENTIAL_MESSAGES.updateFailed, error)),
      },
    );
  };

  const submitCreate = () => {
    const result = buildCreateRequest(values);
    if (!result.ok) return setErrors(result.errors);
    create.mutate(result.data, {
      onSuccess: onSuccess('Credential created'),
      onError: (error) => setFormError(failureMessage(CREDENTIAL_MESSAGES.createFailed, error)),
    });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    if (credential) submitUpdate(credential.id);
    else submitCreate();
  };

  return (
    <form onSubmit={submit} noValidate aria-label={isEdit ? 'Edit Credential' : 'Add Credential'}>
      <Stack gap="sm">
        {formError && (
          <Alert color="red" role="alert">
            {formError}
          </Alert>
        )}
        {credential ? (
          <TextInput label="ID" value={credential.id} readOnly />
        ) : (
          <NativeSelect
            label="Type"
            data={TYPE_OPTIONS}
            value={values.type}
            onChange={(e) => set('type', e.currentTarget.value as TCredentialType)}
            error={errors.type}
          />
        )}
        <TextInput
          label="Account Name"
          withAsterisk
          maxLength={CREDENTIAL_ACCOUNT_NAME_MAX}
          data-autofocus
          {...text('account_name')}
        />
        {!isEdit && (
          <TextInput
            label="Client ID"
            withAsterisk
            maxLength={CREDENTIAL_CLIENT_ID_MAX}
            autoComplete="off"
            {...text('client_id')}
          />
        )}
        <PasswordInput
          label="Client Secret"
          withAsterisk={!isEdit}
          placeholder={isEdit ? KEEP_SECRET_PLACEHOLDER : undefined}
          maxLength={CREDENTIAL_SECRET_MAX}
          autoComplete="new-password"
          {...text('client_secret')}
        />
        <Textarea
          label="Description"
          description="Optional"
          rows={2}
          resize="vertical"
          maxLength={CREDENTIAL_DESCRIPTION_MAX}
          {...text('description')}
        />
        {!isEdit && (
          <Checkbox
            label="Enabled"
            checked={values.enabled}
            onChange={(e) => set('enabled', e.currentTarget.checked)}
          />
        )}
        <Fieldset legend="Proxy Location (optional)" variant="filled">
          <Stack gap="xs">
            <Group grow align="flex-start">
              <TextInput
                label="Country Code"
                placeholder="US"
                maxLength={PROXY_COUNTRY_MAX}
                {...text('country')}
              />
              <TextInput label="State" placeholder="CA" maxLength={PROXY_STATE_MAX} {...text('state')} />
              <TextInput
                label="City"
                placeholder="Los Angeles"
                maxLength={PROXY_CITY_MAX}
                {...text('city')}
              />
            </Group>
            <Text size="xs" c="dimmed">
              Leave empty for a random location.
            </Text>
          </Stack>
        </Fieldset>
        <Group justify="flex-end">
          <Button variant="default" type="button" onClick={onDone}>
            Cancel
          </Button>
          {isEdit ? (
            <Button type="submit" loading={pending}>
              Save
            </Button>
          ) : (
            <Button type="submit" loading={pending} disabled={!hasRequiredCreateFields(values)}>
              Create
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}
