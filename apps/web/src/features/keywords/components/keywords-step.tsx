import { useRef, useState, type FormEvent } from 'react';
import {
  Alert,
  Badge,
  Button,
  Divider,
  Group,
  Loader,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Stack,
  TagsInput,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import {
  FILTER_ENTRIES_MAX,
  NO_KEYWORD_SELECTED,
  type TApproveKeywordsResponse,
  type TDiscoveryFilters,
  type TKeywordList,
  type TKeywordType,
} from '@threadreach/contract';
import { errorMessage } from '../../../lib/api-error';
import { useKeptDraft } from '../../../lib/use-kept-draft';
import {
  storeSavedKeywords,
  useApproveKeywords,
  useGenerateKeywords,
  useKeywords,
} from '../hooks/use-keywords';
import {
  approvalsOf,
  checkFilters,
  checkNewKeyword,
  rowKey,
  rowsOf,
  type TFilterErrors,
  type TFilterField,
  type TKeywordRow,
} from '../keyword-rows';
import { KeywordGroup } from './keyword-group';
import { DisabledReason } from '../../../components/ui/disabled-reason';
import { useAiBlockReason } from '../../auth';

/** Texts of spec section 8, "Workflow", and this screen's own confirmations. */
export const KEYWORD_MESSAGES = {
  saveError: 'Error saving keywords and patterns',
  approveError: 'Error approving keywords',
  generateError: 'Error generating keywords',
  saved: 'Keywords and patterns saved',
  noneGenerated: 'No new keywords were generated. Check the product information in Step 1.',
} as const;

export type TSubredditGeneration = TApproveKeywordsResponse['subreddit_generation'];

export interface TKeywordsStepProps {
  projectId: string;
  readOnly: boolean;
  onBack: () => void;
  onSkip: () => void;
  /** After Approve & Continue; says whether subreddit generation started (or already ran). */
  onApproved: (generation: TSubredditGeneration) => void;
}

const FILTER_FIELDS: { field: TFilterField; label: string; description: string; placeholder: string }[] = [
  {
    field: 'negative_keywords',
    label: 'Negative keywords',
    description: 'A post or comment containing one of these is never a lead.',
    placeholder: 'e.g. hiring, free template',
  },
  {
    field: 'excluded_subreddits',
    label: 'Excluded subreddits',
    description: 'Posts and comments in these subreddits are skipped.',
    placeholder: 'e.g. r/jobs',
  },
  {
    field: 'excluded_authors',
    label: 'Excluded authors',
    description: 'Posts and comments by these Reddit users are skipped (your own accounts, bots).',
    placeholder: 'e.g. u/AutoModerator',
  },
];

type TAction = 'save' | 'approve';

/** Kept edits read back from storage: keyword rows and the three filter lists. */
function isKeywordsDraft(values: unknown): values is { rows: TKeywordRow[]; filters: TDiscoveryFilters } {
  if (typeof values !== 'object' || values === null) return false;
  const { rows, filters } = values as { rows?: unknown; filters?: unknown };
  const texts = (v: unknown) => Array.isArray(v) && v.every((t) => typeof t === 'string');
  return (
    Array.isArray(rows) &&
    rows.every(
      (r: Partial<TKeywordRow> | null) =>
        r !== null &&
        typeof r.keyword === 'string' &&
        (r.type === 'product' || r.type === 'icp') &&
        typeof r.approved === 'boolean' &&
        (r.id === undefined || typeof r.id === 'string'),
    ) &&
    typeof filters === 'object' &&
    filters !== null &&
    FILTER_FIELDS.every(({ field }) => texts((filters as Record<string, unknown>)[field]))
  );
}

function KeywordsEditor({ list, ...props }: TKeywordsStepProps & { list: TKeywordList }) {
  const { projectId, readOnly, onBack, onSkip, onApproved } = props;
  const [draft, setDraft, unsaved] = useKeptDraft(
    'keywords',
    projectId,
    { rows: rowsOf(list.items), filters: list.filters },
    isKeywordsDraft,
  );
  const { rows, filters } = draft;
  const setRows = (next: TKeywordRow[]) => setDraft((d) => ({ ...d, rows: next }));
  const setFilters = (change: (f: TDiscoveryFilters) => TDiscoveryFilters) =>
    setDraft((d) => ({ ...d, filters: change(d.filters) }));
  const [filterErrors, setFilterErrors] = useState<TFilterErrors>({});
  const filterInputs = useRef<Partial<Record<TFilterField, HTMLInputElement | null>>>({});
  const [newKeyword, setNewKeyword] = useState('');
  const [newType, setNewType] = useState<TKeywordType>('product');
  const [newKeywordError, setNewKeywordError] = useState<string | null>(null);
  const [selectionError, setSelectionError] = useState<string | null>(null);
  const [failure, setFailure] = useState<{ title: string; message: string } | null>(null);
  const [pending, setPending] = useState<TAction | null>(null);
  const queryClient = useQueryClient();
  const approve = useApproveKeywords(projectId);
  const { mutation: generate, reload } = useGenerateKeywords(projectId);

  const busy = approve.isPending || generate.isPending;
  const update = (next: TKeywordRow[]) => {
    setRows(next);
    if (next.some((r) => r.approved)) setSelectionError(null);
  };
  const setApproved = (predicate: (r: TKeywordRow) => boolean, approved: boolean) =>
    update(rows.map((r) => (predicate(r) ? { ...r, approved } : r)));

  const addKeyword = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkNewKeyword(newKeyword, newType, rows);
    if (!checked.ok) {
      setNewKeywordError(checked.error);
      return;
    }
    update([...rows, { keyword: checked.keyword, type: newType, approved: true }]);
    setNewKeyword('');
    setNewKeywordError(null);
  };

  const submit = async (action: TAction) => {
    setFailure(null);
    if (!rows.some((r) => r.approved)) {
      setSelectionError(NO_KEYWORD_SELECTED);
      return;
    }
    const checkedFilters = checkFilters(filters);
    if (!checkedFilters.ok) {
      setFilterErrors(checkedFilters.errors);
      // The refused entry is further up the page than the button: take the customer to it.
      const first = FILTER_FIELDS.find(({ field }) => checkedFilters.errors[field]);
      if (first) filterInputs.current[first.field]?.focus();
      return;
    }
    setFilterErrors({});
    setPending(action);
    try {
      const result = await approve.mutateAsync({
        keywords: approvalsOf(rows),
        generate_subreddits: action === 'approve',
        filters: checkedFilters.data,
      });
      if (action === 'approve') onApproved(result.subreddit_generation);
      else notifications.show({ color: 'green', message: KEYWORD_MESSAGES.saved });
      storeSavedKeywords(queryClient, projectId, result);
    } catch (error) {
      setFailure({
        title: action === 'approve' ? KEYWORD_MESSAGES.approveError : KEYWORD_MESSAGES.saveError,
        message: errorMessage(error, ''),
      });
    } finally {
      setPending(null);
    }
  };

  const aiBlocked = useAiBlockReason();
  const regenerate = async () => {
    setFailure(null);
    try {
      const edited = unsaved ? draft : null;
      const result = await generate.mutateAsync();
      if (!result.generated) notifications.show({ color: 'yellow', message: KEYWORD_MESSAGES.noneGenerated });
      await reload(edited);
    } catch (error) {
      setFailure({ title: KEYWORD_MESSAGES.generateError, message: errorMessage(error, '') });
    }
  };

  const product = rows.filter((r) => r.type === 'product');
  const icp = rows.filter((r) => r.type === 'icp');
  const group = (type: TKeywordType, title: string, items: TKeywordRow[]) => (
    <KeywordGroup
      title={title}
      rows={items}
      readOnly={readOnly || busy}
      onToggle={(row, approved) => setApproved((r) => rowKey(r) === rowKey(row), approved)}
      onSetAll={(approved) => setApproved((r) => r.type === type, approved)}
      onRemove={(row) => update(rows.filter((r) => rowKey(r) !== rowKey(row)))}
    />
  );

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start">
        <Text c="dimmed" maw={640}>
          Choose the keywords that describe what people write when they need your product. Approved keywords
          are matched against every new post and comment in your subreddits.
        </Text>
        <DisabledReason why={readOnly ? null : aiBlocked}>
          <Button
            variant="light"
            onClick={() => void regenerate()}
            loading={generate.isPending}
            disabled={readOnly || aiBlocked !== null || approve.isPending}
          >
            {rows.length === 0 ? 'Generate Keywords' : 'Regenerate Keywords'}
          </Button>
        </DisabledReason>
      </Group>

      {failure && (
        <Alert
          color="red"
          role="alert"
          title={failure.title}
          withCloseButton
          onClose={() => setFailure(null)}
        >
          {failure.message !== failure.title ? failure.message : null}
        </Alert>
      )}

      {rows.length === 0 && (
        <Text size="sm" c="dimmed">
          No keywords yet. Generate them from your product information, or add your own below.
        </Text>
      )}

      <SimpleGrid cols={{ base: 1, md: 2 }}>
        {group('product', 'Product Keywords', product)}
        {group('icp', 'ICP Keywords', icp)}
      </SimpleGrid>

      <form onSubmit={addKeyword} aria-label="Add keyword">
        <Group align="flex-start" gap="xs">
          <TextInput
            label="Add your own keyword"
            placeholder="e.g. invoice software"
            value={newKeyword}
            error={newKeywordError}
            disabled={readOnly || busy}
            onChange={(e) => {
              setNewKeyword(e.currentTarget.value);
              setNewKeywordError(null);
            }}
            style={{ flex: 1, minWidth: 200 }}
          />
          <Stack gap={4}>
            <Text size="sm" fw={500} id="new-keyword-type">
              Type
            </Text>
            <SegmentedControl
              aria-labelledby="new-keyword-type"
              value={newType}
              onChange={(value) => setNewType(value as TKeywordType)}
              disabled={readOnly || busy}
              data={[
                { value: 'product', label: 'Product' },
                { value: 'icp', label: 'ICP' },
              ]}
            />
          </Stack>
          <Button type="submit" variant="default" mt={25} disabled={readOnly || busy}>
            Add
          </Button>
        </Group>
      </form>

      <Divider label="Patterns: what is never a lead" labelPosition="left" />
      {FILTER_FIELDS.map(({ field, label, description, placeholder }) => (
        <TagsInput
          key={field}
          label={label}
          description={description}
          placeholder={placeholder}
          value={filters[field]}
          error={filterErrors[field]}
          disabled={readOnly || busy}
          splitChars={[',']}
          maxTags={FILTER_ENTRIES_MAX}
          acceptValueOnBlur
          clearable
          ref={(input) => {
            filterInputs.current[field] = input;
          }}
          onChange={(value) => {
            const next = { ...filters, [field]: value };
            setFilters(() => next);
            // Said as the entry is added, not only at Save, further down the page.
            const checked = checkFilters(next);
            setFilterErrors((e) => ({ ...e, [field]: checked.ok ? undefined : checked.errors[field] }));
          }}
        />
      ))}

      {selectionError && (
        <Alert color="yellow" role="alert">
          {selectionError}
        </Alert>
      )}

      <Group justify="space-between">
        <Button variant="default" onClick={onBack}>
          Back
        </Button>
        <Group gap="xs">
          {unsaved && !readOnly && (
            <Badge color="yellow" variant="filled">
              Unsaved changes
            </Badge>
          )}
          <Button variant="subtle" onClick={onSkip}>
            Skip to Subreddits
          </Button>
          <Button
            variant="default"
            onClick={() => void submit('save')}
            loading={pending === 'save'}
            disabled={readOnly || (busy && pending !== 'save')}
          >
            Save Keywords &amp; Patterns
          </Button>
          <Button
            onClick={() => void submit('approve')}
            loading={pending === 'approve'}
            disabled={readOnly || (busy && pending !== 'approve')}
          >
            Approve &amp; Continue
          </Button>
        </Group>
      </Group>
    </Stack>
  );
}

/** Step 2: product and ICP keywords to approve, the customer's own, and what is never a lead. */
export function KeywordsStep(props: TKeywordsStepProps) {
  const keywords = useKeywords(props.projectId);
  return (
    <Paper withBorder p="lg" radius="md">
      <Title order={2} mb="md">
        Keywords
      </Title>
      {keywords.isPending || !keywords.isFetchedAfterMount ? (
        <Loader aria-label="Loading keywords" />
      ) : keywords.isError ? (
        <Alert color="red" role="alert">
          {keywords.error.message}
        </Alert>
      ) : (
        // A new list from the server (a save, a regeneration) starts the editor over from it.
        <KeywordsEditor key={keywords.dataUpdatedAt} {...props} list={keywords.data} />
      )}
    </Paper>
  );
}
