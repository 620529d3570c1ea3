import { useMemo, useState, type FormEvent } from 'react';
import { Alert, Badge, Button, Group, Loader, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  PRODUCT_INFO_CHANGED,
  PRODUCT_INFO_LIMITS,
  ZProductInfoFields,
  type TProductInfo,
  type TProductInfoField,
  type TProductInfoFields,
} from '@threadreach/contract';
import { ApiError } from '../../../lib/api-error';
import { useKeptDraft } from '../../../lib/use-kept-draft';
import { useLoadingFlag } from '../../../lib/loading-store';
import { SAVE_PRODUCT_INFO_FLAG, useProductInfo, useSaveProductInfo } from '../hooks/use-product-info';
import { CharCounter } from './char-counter';
import { DisabledReason } from '../../../components/ui/disabled-reason';
import { useAiBlockReason } from '../../auth';

export const SAVE_ERROR_TITLE = 'Error saving product information';
/** Step 1 is saved even when keyword generation fails (spec section 8). */
export const KEYWORD_GENERATION_FAILED = 'Keyword generation failed - you can retry in Step 2.';
export const CHANGED_ELSEWHERE_TITLE = 'Changed elsewhere';
export const RELOAD_SAVED = 'Reload saved information';

const FIELDS: { name: TProductInfoField; label: string; placeholder: string; rows: number }[] = [
  {
    name: 'product_description',
    label: 'Product Description',
    placeholder: 'What do you sell, and what problem does it solve?',
    rows: 4,
  },
  {
    name: 'ideal_client_profile',
    label: 'Ideal Client Profile',
    placeholder: 'Who needs it? Describe the people you want to reach.',
    rows: 4,
  },
  {
    name: 'call_to_action',
    label: 'Call to Action',
    placeholder: 'What should people do next? For example: book a free call.',
    rows: 2,
  },
  {
    name: 'writing_style',
    label: 'Writing Style',
    placeholder: 'How should messages sound? For example: friendly, short, no sales talk.',
    rows: 2,
  },
];

type TErrors = Partial<Record<TProductInfoField, string>>;

function fieldsOf(info: TProductInfo | undefined): TProductInfoFields {
  return {
    product_description: info?.product_description ?? '',
    ideal_client_profile: info?.ideal_client_profile ?? '',
    call_to_action: info?.call_to_action ?? '',
    writing_style: info?.writing_style ?? '',
  };
}

/** The client-side check of the four fields with the contract's schema. */
export function validateProductInfo(
  values: TProductInfoFields,
): { ok: true; data: TProductInfoFields } | { ok: false; errors: TErrors } {
  const parsed = ZProductInfoFields.safeParse(values);
  if (parsed.success) return { ok: true, data: parsed.data };
  const errors: TErrors = {};
  for (const issue of parsed.error.issues) {
    const key = issue.path[0] as TProductInfoField | undefined;
    if (key && !errors[key]) errors[key] = issue.message;
  }
  return { ok: false, errors };
}

interface TProductInfoFormProps {
  projectId: string;
  readOnly?: boolean;
  /** Called after a save with keyword regeneration succeeded. */
  onKeywordsRegenerated?: () => void;
}

interface TFormProps extends TProductInfoFormProps {
  saved: TProductInfo;
}

/** Kept edits read back from storage: the four fields, all texts. */
function isFields(values: unknown): values is TProductInfoFields {
  if (typeof values !== 'object' || values === null) return false;
  const record = values as Record<string, unknown>;
  return FIELDS.every(({ name }) => typeof record[name] === 'string');
}

function ProductInfoFormFields({ projectId, readOnly, onKeywordsRegenerated, saved }: TFormProps) {
  // The saved version the form was started from: a save names it, so one saved elsewhere since is refused.
  const [basis, setBasis] = useState(saved);
  const initial = useMemo(() => fieldsOf(basis), [basis]);
  const [values, setValues, unsaved] = useKeptDraft('productInfo', projectId, initial, isFields);
  const [errors, setErrors] = useState<TErrors>({});
  const [saveError, setSaveError] = useState<string | null>(null);
  /** The server's word that the information was saved elsewhere since `basis`; the text stays as typed. */
  const [changedElsewhere, setChangedElsewhere] = useState<string | null>(null);
  const { refetch } = useProductInfo(projectId);
  const save = useSaveProductInfo(projectId);
  const saving = useLoadingFlag(SAVE_PRODUCT_INFO_FLAG);
  const aiBlocked = useAiBlockReason();
  const [pendingAction, setPendingAction] = useState<'regenerate' | 'save' | null>(null);
  const [reloading, setReloading] = useState(false);

  const startFrom = (info: TProductInfo) => {
    setBasis(info);
    setValues(fieldsOf(info));
    setErrors({});
    setChangedElsewhere(null);
  };

  // A newer version read while nothing here is unsaved is simply shown.
  if (saved.updated_at !== basis.updated_at && !unsaved) startFrom(saved);

  const reload = async () => {
    setReloading(true);
    const fresh = await refetch();
    setReloading(false);
    if (fresh.isSuccess) startFrom(fresh.data);
    else setSaveError(fresh.error?.message ?? null);
  };

  const run = (regenerate: boolean) => {
    setSaveError(null);
    setChangedElsewhere(null);
    const result = validateProductInfo(values);
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    setErrors({});
    setPendingAction(regenerate ? 'regenerate' : 'save');
    const fields = result.data;
    save.mutate(
      { fields, basedOn: basis.updated_at, regenerate },
      {
        onSuccess: (result) => {
          // As stored (trimmed), in the saved fields' order: nothing is left unsaved.
          startFrom(result.product_info);
          notifications.show({ color: 'green', message: 'Product information saved' });
          if (regenerate && !result.keywords_generated && result.keywords_error) {
            notifications.show({ color: 'yellow', message: KEYWORD_GENERATION_FAILED });
          }
          if (regenerate) onKeywordsRegenerated?.();
        },
        onError: (error) => {
          if (error instanceof ApiError && error.code === PRODUCT_INFO_CHANGED) {
            setChangedElsewhere(error.message);
            return;
          }
          setSaveError(error instanceof ApiError || error instanceof Error ? error.message : null);
        },
        onSettled: () => setPendingAction(null),
      },
    );
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    run(true);
  };

  const busy = saving && pendingAction !== null;

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Product Information">
      <Stack gap="md">
        {saveError !== null && (
          <Alert color="red" role="alert" title={SAVE_ERROR_TITLE}>
            {saveError}
          </Alert>
        )}
        {changedElsewhere !== null && (
          <Alert color="orange" role="alert" title={CHANGED_ELSEWHERE_TITLE}>
            <Stack gap="xs" align="flex-start">
              <Text size="sm">{changedElsewhere}</Text>
              <Text size="sm">
                Your text below is not saved. Reloading replaces it with the information saved elsewhere.
              </Text>
              <Button
                size="xs"
                variant="light"
                color="orange"
                loading={reloading}
                onClick={() => void reload()}
              >
                {RELOAD_SAVED}
              </Button>
            </Stack>
          </Alert>
        )}
        {FIELDS.map(({ name, label, placeholder, rows }) => {
          const { min, max } = PRODUCT_INFO_LIMITS[name];
          const value = values[name];
          return (
            <Stack key={name} gap={4}>
              <Textarea
                label={label}
                placeholder={placeholder}
                required
                resize="vertical"
                rows={rows}
                value={value}
                readOnly={readOnly}
                error={errors[name]}
                onChange={(e) => {
                  const next = e.currentTarget.value;
                  setValues((v) => ({ ...v, [name]: next }));
                  if (errors[name]) setErrors((er) => ({ ...er, [name]: undefined }));
                }}
              />
              <Group justify="space-between">
                <Text size="xs" c="dimmed">
                  {min > 1 ? `${min}–${max} characters` : `Up to ${max} characters`}
                </Text>
                <CharCounter length={value.length} min={min} max={max} />
              </Group>
            </Stack>
          );
        })}
        <Group justify="flex-end">
          {unsaved && !readOnly && (
            <Badge color="yellow" variant="filled">
              Unsaved changes
            </Badge>
          )}
          <Button
            variant="default"
            type="button"
            onClick={() => run(false)}
            disabled={readOnly || (busy && pendingAction !== 'save')}
            loading={busy && pendingAction === 'save'}
          >
            Save
          </Button>
          <DisabledReason why={readOnly ? null : aiBlocked}>
            <Button
              type="submit"
              disabled={readOnly || aiBlocked !== null || (busy && pendingAction !== 'regenerate')}
              loading={busy && pendingAction === 'regenerate'}
            >
              Save &amp; Generate Keywords
            </Button>
          </DisabledReason>
        </Group>
      </Stack>
    </form>
  );
}

/** Step 1: product description, ideal client profile, call to action, writing style. */
export function ProductInfoForm(props: TProductInfoFormProps) {
  const info = useProductInfo(props.projectId);
  return (
    <Paper withBorder p="lg" radius="md">
      <Title order={2} mb="md">
        Product Information
      </Title>
      {info.isPending ? (
        <Loader aria-label="Loading product information" />
      ) : info.isError ? (
        <Alert color="red" role="alert">
          {info.error.message}
        </Alert>
      ) : (
        <ProductInfoFormFields key={props.projectId} {...props} saved={info.data} />
      )}
    </Paper>
  );
}
