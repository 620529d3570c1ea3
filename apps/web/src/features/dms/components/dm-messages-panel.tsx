import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import {
  Alert,
  Button,
  Center,
  Group,
  Loader,
  NativeSelect,
  Pagination,
  Paper,
  Progress,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import {
  DM_GENERATION_RUNNING,
  DM_SEARCH_MAX,
  DM_TEXTS,
  ZDmState,
  type TDmGenerationStatus,
  type TDmMessage,
  type TDmState,
} from '@threadreach/contract';
import { ApiError, ContractMismatchError } from '../../../lib/api-error';
import { deletedText, deleteFailedText } from '../../../lib/delete-texts';
import {
  DM_ITEM,
  DM_STATE_FILTERS,
  generationFailureText,
  generationSummary,
  isLocked,
  NO_MATCHING_DMS,
  otherPagesEditsText,
  refusalDetail,
  regenerationFailureText,
  textProblem,
} from '../dm-texts';
import {
  DMS_PAGE_SIZE,
  isDmGone,
  useDeleteDm,
  useDms,
  useGenerateAllDms,
  useRegenerateDm,
  useSaveDms,
} from '../hooks/use-dms';
import { DeleteDmDialog, RegenerateDmDialog } from './delete-dm-dialog';
import { DmItem } from './dm-item';
import { DisabledReason } from '../../../components/ui/disabled-reason';
import { SkipLink, type TSkipTo } from '../../../components/ui/skip-link';
import { localPrefs } from '../../../lib/local-prefs';
import { useAiBlockReason } from '../../auth';

export interface TDmMessagesPanelProps {
  projectId: string;
  /** The section's id, for a skip link to it. */
  id?: string;
  /** The section after the DMs, which their list offers to skip to. */
  skipTo?: TSkipTo;
  readOnly: boolean;
  /** Sends one saved DM; without it the Send buttons stay disabled. */
  onSend?: (dm: TDmMessage) => void;
  /**
   * More actions beside Generate All DMs (Send All DMs), told how many DMs hold unsaved edits and how many
   * are approved and not sent yet (null until the list has loaded).
   */
  actions?: (dms: { unsavedEdits: number; readyToSend: number | null }) => ReactNode;
  /** Runs for each DM whose edit was saved, with the text before and after (agent mode learns from it). */
  onEdited?: (dm: TDmMessage, saved: string) => void;
  /** Runs for each DM deleted. */
  onDeleted?: (dm: TDmMessage) => void;
  /** Runs when Generate All DMs has completed. */
  onGenerated?: () => void;
  /** Runs as Generate All DMs writes DMs, each time its count of DMs written grows. */
  onWritten?: () => void;
}

function failure(text: string, error: unknown) {
  const detail = refusalDetail(error);
  notifications.show(
    detail && detail !== text
      ? { color: 'red', title: text, message: detail }
      : { color: 'red', message: text },
  );
}

function GenerationProgress({ status }: { status: TDmGenerationStatus | null }) {
  const done = status?.progress?.items_read ?? 0;
  const written = status?.progress?.leads_found ?? 0;
  const total = status?.total ?? null;
  return (
    <Paper withBorder p="sm" radius="md" role="status" aria-live="polite" aria-label="Generating DMs">
      <Stack gap={6}>
        <Group gap="sm">
          <Loader size="xs" aria-hidden />
          <Text fw={600}>Generating DMs...</Text>
        </Group>
        <Progress
          value={total ? Math.round((done / total) * 100) : 0}
          aria-label="DM generation progress"
          animated
        />
        <Text size="sm" c="dimmed">
          {total === null ? 'Starting' : `Leads done: ${done} of ${total}`} · DMs written: {written}
        </Text>
      </Stack>
    </Paper>
  );
}

/** How long the recipient search waits for typing to pause before it reads. */
export const DM_SEARCH_DEBOUNCE_MS = 300;

/**
 * Step 4's DM messages, newest first: each editable with its counter and an Unsaved mark until saved, with
 * Save, Regenerate, Delete and Send; "Generate All DMs" writes one for every lead that has none yet.
 */
export function DmMessagesPanel({
  projectId,
  id,
  skipTo,
  readOnly,
  onSend,
  actions,
  onEdited,
  onDeleted,
  onGenerated,
  onWritten,
}: TDmMessagesPanelProps) {
  const [page, setPage] = useState(1);
  // Server-side, so every page of the matches is there; a new search or status starts at page 1.
  const [search, setSearch] = useState('');
  // Applied once typing pauses, not at every key: each read counts the project's DMs.
  const [searched, setSearched] = useState('');
  const applySearch = useDebouncedCallback((value: string) => {
    setSearched(value.trim());
    setPage(1);
  }, DM_SEARCH_DEBOUNCE_MS);
  const [stateFilter, setStateFilter] = useState<TDmState | null>(null);
  const filtered = searched !== '' || stateFilter !== null;
  /**
   * Texts changed in the editors and not saved yet, by DM id, kept in local storage so that switching
   * project or page, Connect account's trip to Reddit or a reload does not lose them.
   */
  const [kept, setEdits] = useState<Record<string, string>>(() => localPrefs.getDmEdits(projectId));
  /** The DM whose Delete asks for confirmation. */
  const [askingDelete, setAskingDelete] = useState<TDmMessage | null>(null);
  const [askingRegenerate, setAskingRegenerate] = useState<TDmMessage | null>(null);
  const [notice, setNotice] = useState<{ color: 'red' | 'yellow'; message: string } | null>(null);
  const dms = useDms(projectId, page, { search: searched, state: stateFilter });
  const save = useSaveDms(projectId);
  const remove = useDeleteDm(projectId);
  const regenerate = useRegenerateDm(projectId);
  const { polling, start, reload } = useGenerateAllDms(projectId, (status) => {
    onGenerated?.();
    notifications.show({ color: 'green', message: generationSummary(status.result) });
  });
  const running = polling.state.kind === 'running' ? polling.state.status : null;
  const written = running?.progress?.leads_found ?? 0;

  // New DMs appear in the list, and in the counts beside it, while the run writes them.
  useEffect(() => {
    if (written === 0) return;
    void reload();
    onWritten?.();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- reload on each new DM only
  }, [written]);

  const items = dms.data?.items ?? [];
  // A kept edit of a DM sent, or saved with the same text, in another tab is no edit any more.
  const edits = useMemo(() => {
    const settled = (dms.data?.items ?? []).filter(
      (dm) => dm.id in kept && (isLocked(dm) || kept[dm.id] === dm.message_content),
    );
    if (settled.length === 0) return kept;
    return Object.fromEntries(Object.entries(kept).filter(([id]) => !settled.some((dm) => dm.id === id)));
  }, [kept, dms.data]);
  useEffect(() => localPrefs.setDmEdits(projectId, edits), [projectId, edits]);
  const valueOf = (dm: TDmMessage) => edits[dm.id] ?? dm.message_content;
  const forget = (ids: string[]) =>
    setEdits((all) => Object.fromEntries(Object.entries(all).filter(([id]) => !ids.includes(id))));
  const setText = (dm: TDmMessage, text: string) =>
    // Back to the saved text: nothing left to save, so the Unsaved mark goes.
    text === dm.message_content ? forget([dm.id]) : setEdits((all) => ({ ...all, [dm.id]: text }));

  const unsaved = items.filter((dm) => !isLocked(dm) && valueOf(dm) !== dm.message_content);
  // Edits on other pages count too: they stay in `edits` until saved or undone.
  const elsewhere = dms.data ? Object.keys(edits).filter((id) => !items.some((dm) => dm.id === id)) : [];
  const unsavedEdits = unsaved.length + elsewhere.length;
  const savable = unsaved.filter((dm) => textProblem(valueOf(dm)) === null);

  const saveOne = (dm: TDmMessage) => {
    const text = valueOf(dm);
    save.mutate([{ id: dm.id, message_content: text }], {
      onSuccess: () => {
        forget([dm.id]);
        onEdited?.(dm, text);
      },
      onError: (error) => {
        // Deleted elsewhere: its card goes as the list reloads, and the edit with it.
        if (isDmGone(error)) forget([dm.id]);
        failure(DM_TEXTS.saveEditFailed, error);
      },
    });
  };
  const saveAll = () => {
    const saving = savable.map((dm) => ({ dm, text: valueOf(dm) }));
    save.mutate(
      saving.map(({ dm, text }) => ({ id: dm.id, message_content: text })),
      {
        onSuccess: () => {
          forget(saving.map(({ dm }) => dm.id));
          for (const { dm, text } of saving) onEdited?.(dm, text);
        },
        onError: (error) => failure(DM_TEXTS.saveEditsFailed, error),
      },
    );
  };
  const deleteOne = (dm: TDmMessage) =>
    remove.mutate(dm.id, {
      onSettled: () => setAskingDelete(null),
      onSuccess: () => {
        forget([dm.id]);
        onDeleted?.(dm);
        notifications.show({ color: 'green', message: deletedText(DM_ITEM) });
      },
      onError: (error) => {
        if (isDmGone(error)) forget([dm.id]);
        failure(deleteFailedText(DM_ITEM), error);
      },
    });
  const regenerateOne = (dm: TDmMessage) =>
    regenerate.mutate(dm.id, {
      onSettled: () => setAskingRegenerate(null),
      onSuccess: () => forget([dm.id]),
      onError: (error) => notifications.show({ color: 'red', message: regenerationFailureText(error) }),
    });

  const aiBlocked = useAiBlockReason();
  // A double click lands before the button shows it is loading: the second would start a second run.
  const starting = useRef(false);
  const generateAll = async () => {
    if (starting.current) return;
    starting.current = true;
    setNotice(null);
    try {
      const answer = await start.mutateAsync();
      if (answer?.data?.status !== 'started') {
        setNotice({ color: 'red', message: 'Unexpected response from server' });
        return;
      }
      polling.watch();
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        setNotice({ color: 'yellow', message: DM_GENERATION_RUNNING });
        polling.watch();
        return;
      }
      const message =
        error instanceof ContractMismatchError
          ? 'Unexpected response from server'
          : generationFailureText(error);
      setNotice({ color: 'red', message });
    } finally {
      starting.current = false;
    }
  };

  const pending = (mutation: { isPending: boolean; variables?: unknown }, dm: TDmMessage) =>
    mutation.isPending &&
    (mutation.variables === dm.id ||
      (Array.isArray(mutation.variables) && mutation.variables.some((v: { id: string }) => v.id === dm.id)));
  const total = dms.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / DMS_PAGE_SIZE));

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-label="DM messages" id={id}>
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={3}>DM messages{dms.data ? ` (${total})` : ''}</Title>
          <Group gap="xs">
            {savable.length > 1 && (
              <Button variant="default" onClick={saveAll} loading={save.isPending} disabled={readOnly}>
                Save All Edits ({savable.length})
              </Button>
            )}
            <DisabledReason why={readOnly ? null : aiBlocked}>
              <Button
                onClick={() => void generateAll()}
                loading={start.isPending}
                disabled={readOnly || aiBlocked !== null || polling.running}
              >
                Generate All DMs
              </Button>
            </DisabledReason>
            {actions?.({ unsavedEdits, readyToSend: dms.data?.ready_to_send ?? null })}
          </Group>
        </Group>
        <Text size="xs" c="dimmed">
          Writes a DM for every post and comment whose author has none yet. People on your do-not-contact list
          or already messaged are skipped.
        </Text>
        {elsewhere.length > 0 && (
          <Group gap="xs">
            <Text size="sm">{otherPagesEditsText(elsewhere.length)}</Text>
            <Button variant="subtle" size="compact-sm" onClick={() => forget(elsewhere)} disabled={readOnly}>
              Undo those edits
            </Button>
          </Group>
        )}
        {polling.state.kind === 'running' && <GenerationProgress status={running} />}
        {polling.state.kind === 'error' && (
          <Alert color="red" role="alert">
            {polling.state.message}
          </Alert>
        )}
        {notice && (
          <Alert color={notice.color} role="alert">
            {notice.message}
          </Alert>
        )}
        {/* Before the search and status: skipping the list skips them too. */}
        {skipTo && items.length > 0 && <SkipLink to={skipTo.id}>{skipTo.label}</SkipLink>}
        <Group gap="sm" role="search" aria-label="Find DMs">
          <TextInput
            aria-label="Search by recipient"
            placeholder="Search recipients"
            size="xs"
            maxLength={DM_SEARCH_MAX}
            value={search}
            onChange={(e) => {
              setSearch(e.currentTarget.value);
              applySearch(e.currentTarget.value);
            }}
          />
          <NativeSelect
            aria-label="Status"
            size="xs"
            value={stateFilter ?? ''}
            onChange={(e) => {
              const value = ZDmState.safeParse(e.currentTarget.value);
              setStateFilter(value.success ? value.data : null);
              setPage(1);
            }}
            data={DM_STATE_FILTERS}
          />
        </Group>
        {dms.isPending ? (
          <Center py="md">
            <Loader aria-label="Loading DM messages" />
          </Center>
        ) : dms.isError ? (
          <Alert color="red" role="alert">
            {dms.error.message}
          </Alert>
        ) : items.length === 0 && filtered ? (
          <Text c="dimmed" size="sm">
            {NO_MATCHING_DMS}
          </Text>
        ) : items.length === 0 ? (
          <Text c="dimmed" size="sm">
            No DM messages yet. Generate one from a post, comment or user above, or use Generate All DMs.
          </Text>
        ) : (
          <Stack gap="xs">
            {items.map((dm) => (
              <DmItem
                key={dm.id}
                dm={dm}
                value={valueOf(dm)}
                onChange={(text) => setText(dm, text)}
                readOnly={readOnly}
                saving={pending(save, dm)}
                regenerating={pending(regenerate, dm)}
                deleting={pending(remove, dm)}
                onSave={() => saveOne(dm)}
                onUndo={() => forget([dm.id])}
                // A saved edit would be replaced: that asks first (it may be what the agent learns from).
                onRegenerate={() => (dm.edited ? setAskingRegenerate(dm) : regenerateOne(dm))}
                onDelete={() => setAskingDelete(dm)}
                onSend={onSend}
              />
            ))}
          </Stack>
        )}
        {pages > 1 && (
          <Group justify="center">
            <Pagination total={pages} value={Math.min(page, pages)} onChange={setPage} size="sm" />
          </Group>
        )}
      </Stack>
      <DeleteDmDialog
        dm={askingDelete}
        deleting={remove.isPending}
        onConfirm={deleteOne}
        onClose={() => setAskingDelete(null)}
      />
      <RegenerateDmDialog
        dm={askingRegenerate}
        regenerating={regenerate.isPending}
        onConfirm={regenerateOne}
        onClose={() => setAskingRegenerate(null)}
      />
    </Paper>
  );
}
