import { useRef, useState, type FormEvent } from 'react';
import {
  Alert,
  Badge,
  Button,
  FileButton,
  Group,
  List,
  Loader,
  Modal,
  Pagination,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  DO_NOT_CONTACT_ADD_MAX,
  DO_NOT_CONTACT_IMPORT_MAX_CHARS,
  type TDoNotContactEntry,
  type TImportDoNotContactResponse,
} from '@threadreach/contract';
import { errorMessage } from '../../../lib/api-error';
import { importSummary, parseNames, REASON_COLORS, REASON_LABELS } from '../do-not-contact-format';
import {
  DO_NOT_CONTACT_PAGE_SIZE,
  useAddDoNotContact,
  useDoNotContactList,
  useImportDoNotContact,
  useRemoveDoNotContact,
} from '../hooks/use-do-not-contact';
import stacked from '../../../components/ui/stacked-table.module.css';

export const DNC_TEXTS = {
  title: 'Do-not-contact list',
  intro:
    'Nobody on this list gets a DM from any of your projects. People who asked not to be contacted stay on it for good.',
  empty: 'Nobody is on the list.',
  noNames: 'Enter at least one Reddit user name',
  tooMany: `At most ${DO_NOT_CONTACT_ADD_MAX} names at once`,
  // Nothing is added while one is wrong: a sentence typed by mistake would add its words as names.
  invalidNames: (names: string[]) =>
    `Nothing was added: correct or remove what is not a Reddit user name (${names.join(', ')}), then Add again.`,
  added: (added: number, listed: number) =>
    `${added} added to the do-not-contact list${listed > 0 ? `, ${listed} already on it` : ''}`,
  addFailed: 'Failed to add to the do-not-contact list',
  removed: (name: string) => `u/${name} removed from the do-not-contact list`,
  removeFailed: 'Failed to remove from the do-not-contact list',
  importFailed: 'Import failed',
  fileTooLarge: 'The file is too large',
  permanent: 'Asked not to be contacted: stays on the list',
} as const;

/** Invalid lines shown after an import (the count covers all of them). */
const INVALID_LINES_SHOWN = 10;

function AddNamesForm({ disabled }: { disabled: boolean }) {
  const [names, setNames] = useState('');
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const add = useAddDoNotContact();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const { valid, invalid } = parseNames(names);
    if (invalid.length > 0) return setError(DNC_TEXTS.invalidNames(invalid));
    if (valid.length === 0) return setError(DNC_TEXTS.noNames);
    if (valid.length > DO_NOT_CONTACT_ADD_MAX) return setError(DNC_TEXTS.tooMany);
    setError(null);
    add.mutate(
      { usernames: valid, ...(note.trim() ? { note: note.trim() } : {}) },
      {
        onSuccess: (result) => {
          setNames('');
          setNote('');
          notifications.show({
            color: 'green',
            message: DNC_TEXTS.added(result.added.length, result.already_listed.length),
          });
        },
        onError: (e) => setError(`${DNC_TEXTS.addFailed}: ${errorMessage(e, '')}`),
      },
    );
  };

  return (
    <form onSubmit={submit} aria-label="Add to the do-not-contact list" noValidate>
      <Stack gap="xs">
        <Textarea
          label="Reddit user names"
          description="Separated by commas, spaces or new lines; u/ prefixes are fine"
          placeholder="u/first_name, second_name"
          rows={3}
          value={names}
          disabled={disabled}
          onChange={(e) => setNames(e.currentTarget.value)}
        />
        <TextInput
          label="Note (optional)"
          value={note}
          maxLength={500}
          disabled={disabled}
          onChange={(e) => setNote(e.currentTarget.value)}
        />
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        <Group>
          <Button type="submit" loading={add.isPending} disabled={disabled}>
            Add
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function ImportCsv({ disabled }: { disabled: boolean }) {
  const importer = useImportDoNotContact();
  const [result, setResult] = useState<TImportDoNotContactResponse | null>(null);
  const [error, setError] = useState<string | null>(null);

  const upload = async (file: File | null) => {
    if (!file) return;
    setResult(null);
    setError(null);
    const csv = await file.text();
    if (csv.length > DO_NOT_CONTACT_IMPORT_MAX_CHARS) return setError(DNC_TEXTS.fileTooLarge);
    importer.mutate(
      { csv },
      {
        onSuccess: setResult,
        onError: (e) => setError(`${DNC_TEXTS.importFailed}: ${errorMessage(e, '')}`),
      },
    );
  };

  return (
    <Stack gap="xs">
      <Group gap="sm">
        <FileButton onChange={(file) => void upload(file)} accept=".csv,.txt,text/csv,text/plain">
          {(props) => (
            <Button variant="default" loading={importer.isPending} disabled={disabled} {...props}>
              Import CSV
            </Button>
          )}
        </FileButton>
        <Text size="xs" c="dimmed">
          One name per line, or a file with a &quot;username&quot; column.
        </Text>
      </Group>
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      {result && (
        <Alert color={result.invalid_count > 0 ? 'yellow' : 'green'} role="status" aria-label="Import result">
          <Text size="sm">{importSummary(result)}</Text>
          {result.invalid.length > 0 && (
            <List size="xs" mt={4}>
              {result.invalid.slice(0, INVALID_LINES_SHOWN).map((line) => (
                <List.Item key={line.line}>
                  Line {line.line}: “{line.value}” — {line.reason}
                </List.Item>
              ))}
            </List>
          )}
        </Alert>
      )}
    </Stack>
  );
}

function EntryRow(props: { entry: TDoNotContactEntry; readOnly: boolean; onRemoved: () => void }) {
  const { entry, readOnly } = props;
  const remove = useRemoveDoNotContact();
  const onRemove = () =>
    remove.mutate(entry.username, {
      onSuccess: () => {
        notifications.show({ color: 'green', message: DNC_TEXTS.removed(entry.username) });
        props.onRemoved();
      },
      onError: (e) =>
        notifications.show({ color: 'red', message: `${DNC_TEXTS.removeFailed}: ${errorMessage(e, '')}` }),
    });
  const button = (
    <Button
      size="compact-xs"
      variant="subtle"
      color="red"
      aria-label={`Remove u/${entry.username}`}
      loading={remove.isPending}
      disabled={readOnly || !entry.removable}
      onClick={onRemove}
    >
      Remove
    </Button>
  );
  return (
    <Table.Tr>
      <Table.Td>u/{entry.username}</Table.Td>
      <Table.Td data-label="Reason">
        <Badge color={REASON_COLORS[entry.reason]} variant="light" size="sm">
          {REASON_LABELS[entry.reason]}
        </Badge>
      </Table.Td>
      {/* Empty when there is no note, so a phone's stacked row leaves it out. */}
      <Table.Td data-label="Note">
        {entry.note && (
          <Text size="xs" lineClamp={2} span>
            {entry.note}
          </Text>
        )}
      </Table.Td>
      <Table.Td data-label="Added">
        <Text size="xs" span>
          {new Date(entry.created_at).toLocaleDateString()}
        </Text>
      </Table.Td>
      <Table.Td>
        {entry.removable ? (
          button
        ) : (
          <Tooltip label={DNC_TEXTS.permanent}>
            <span>{button}</span>
          </Tooltip>
        )}
      </Table.Td>
    </Table.Tr>
  );
}

interface TDoNotContactModalProps {
  opened: boolean;
  onClose: () => void;
  readOnly: boolean;
}

/** The workspace's do-not-contact list: search, add, remove, import a CSV file. */
export function DoNotContactModal({ opened, onClose, readOnly }: TDoNotContactModalProps) {
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const list = useDoNotContactList(page, search.trim(), opened);
  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / DO_NOT_CONTACT_PAGE_SIZE));
  const listHeading = useRef<HTMLHeadingElement>(null);

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={DNC_TEXTS.title}
      size="xl"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {DNC_TEXTS.intro}
        </Text>
        {!readOnly && (
          <>
            <AddNamesForm disabled={readOnly} />
            <ImportCsv disabled={readOnly} />
          </>
        )}
        <Stack gap="xs">
          <Group justify="space-between">
            {/* Where focus goes when the row whose Remove had it leaves the list. */}
            <Title order={4} ref={listHeading} tabIndex={-1}>
              On the list{list.data ? ` (${total})` : ''}
            </Title>
            <TextInput
              aria-label="Search the list"
              placeholder="Search names"
              size="xs"
              value={search}
              onChange={(e) => {
                setSearch(e.currentTarget.value);
                setPage(1);
              }}
            />
          </Group>
          {list.isPending ? (
            <Loader aria-label="Loading the list" size="sm" />
          ) : list.isError ? (
            <Alert color="red" role="alert">
              {list.error.message}
            </Alert>
          ) : list.data.items.length === 0 ? (
            <Text size="sm" c="dimmed">
              {DNC_TEXTS.empty}
            </Text>
          ) : (
            <Table.ScrollContainer minWidth={520} className={stacked.scroll}>
              <Table striped aria-label="Do-not-contact list" className={stacked.table}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>User</Table.Th>
                    <Table.Th>Reason</Table.Th>
                    <Table.Th>Note</Table.Th>
                    <Table.Th>Added</Table.Th>
                    <Table.Th />
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {list.data.items.map((entry) => (
                    <EntryRow
                      key={entry.username}
                      entry={entry}
                      readOnly={readOnly}
                      onRemoved={() => listHeading.current?.focus()}
                    />
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          {pages > 1 && (
            <Group justify="center">
              <Pagination total={pages} value={Math.min(page, pages)} onChange={setPage} size="sm" />
            </Group>
          )}
        </Stack>
      </Stack>
    </Modal>
  );
}

/**
 * Opens the do-not-contact list from step 4. `onClosed` runs when it closes: the leads under it leave out
 * the people on the list, which may have changed.
 */
export function DoNotContactButton({ readOnly, onClosed }: { readOnly: boolean; onClosed?: () => void }) {
  const [opened, setOpened] = useState(false);
  const close = () => {
    setOpened(false);
    onClosed?.();
  };
  return (
    <>
      <Button variant="default" onClick={() => setOpened(true)}>
        Do-not-contact list
      </Button>
      <DoNotContactModal opened={opened} onClose={close} readOnly={readOnly} />
    </>
  );
}
