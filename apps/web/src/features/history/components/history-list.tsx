import { useState } from 'react';
import {
  Alert,
  Badge,
  Blockquote,
  Button,
  Center,
  Group,
  Loader,
  Pagination,
  Paper,
  ScrollArea,
  SegmentedControl,
  Spoiler,
  Stack,
  Text,
} from '@mantine/core';
import type { THistoryItem, TReplyStatus } from '@threadreach/contract';
import { useMinuteClock } from '../../../lib/clock';
import { REPLY_STATUS_COLORS, REPLY_STATUS_LABELS } from '../history-format';
import { useCheckReplies } from '../hooks/use-check-replies';
import { HISTORY_PAGE_SIZE, useHistory } from '../hooks/use-history';
import { RESULTS_LIST_MAX_HEIGHT } from '../../../components/ui/results-list-height';

const FILTERS: Array<{ value: TReplyStatus | 'all'; label: string }> = [
  { value: 'all', label: 'All' },
  { value: 'replied', label: REPLY_STATUS_LABELS.replied },
  { value: 'no_reply', label: REPLY_STATUS_LABELS.no_reply },
  { value: 'refused', label: REPLY_STATUS_LABELS.refused },
];

export const HISTORY_EMPTY = 'Nobody has been contacted yet. People you send a DM to appear here.';

function ago(iso: string, nowMs: number): string {
  const minutes = Math.max(0, Math.round((nowMs - Date.parse(iso)) / 60_000));
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.floor(hours / 24)} days ago`;
}

function HistoryRow({ item, nowMs }: { item: THistoryItem; nowMs: number }) {
  const name = `u/${item.recipient_username}`;
  return (
    <Paper withBorder p="sm" radius="md" component="article" aria-label={name}>
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap">
          <Group gap="xs">
            <Text fw={600} size="sm">
              {name}
            </Text>
            <Badge color={REPLY_STATUS_COLORS[item.reply_status]} variant="light" size="sm">
              {REPLY_STATUS_LABELS[item.reply_status]}
            </Badge>
          </Group>
          <Text size="xs" c="dimmed" title={new Date(item.sent_at).toLocaleString()}>
            Sent {ago(item.sent_at, nowMs)}
            {item.account_username ? ` from u/${item.account_username}` : ''}
          </Text>
        </Group>
        {(item.post_title || item.subreddit) && (
          <Text size="xs" c="dimmed" lineClamp={1}>
            {item.subreddit ? `r/${item.subreddit}` : ''}
            {item.subreddit && item.post_title ? ' · ' : ''}
            {item.post_title ?? ''}
          </Text>
        )}
        <Spoiler maxHeight={44} showLabel="Show message" hideLabel="Hide">
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} aria-label="Message sent">
            {item.message_content}
          </Text>
        </Spoiler>
        {item.last_reply && (
          <Blockquote
            color={item.last_reply.is_refusal ? 'red' : 'green'}
            p="xs"
            aria-label={`Reply from ${name}`}
          >
            <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
              {item.last_reply.body}
            </Text>
            <Text size="xs" c="dimmed" mt={4} title={new Date(item.last_reply.received_at).toLocaleString()}>
              Replied {ago(item.last_reply.received_at, nowMs)}
              {item.reply_count > 1 ? ` · ${item.reply_count} replies` : ''}
            </Text>
          </Blockquote>
        )}
      </Stack>
    </Paper>
  );
}

/** Step 4's History tab: the people the project contacted, the latest first, and what they answered. */
export function HistoryList({ projectId, readOnly = false }: { projectId: string; readOnly?: boolean }) {
  const [filter, setFilter] = useState<TReplyStatus | 'all'>('all');
  const [page, setPage] = useState(1);
  const history = useHistory(projectId, page, filter === 'all' ? null : filter);
  const check = useCheckReplies(projectId);
  const nowMs = useMinuteClock();

  let body;
  if (history.isPending) {
    body = (
      <Center py="md">
        <Loader aria-label="Loading history" />
      </Center>
    );
  } else if (history.isError) {
    body = (
      <Alert color="red" role="alert">
        {history.error.message}
      </Alert>
    );
  } else {
    const { items, total } = history.data;
    const pages = Math.max(1, Math.ceil(total / HISTORY_PAGE_SIZE));
    body = (
      <Stack gap="sm">
        {items.length === 0 ? (
          <Text c="dimmed" size="sm">
            {filter === 'all' ? HISTORY_EMPTY : 'Nobody here yet.'}
          </Text>
        ) : (
          <ScrollArea.Autosize
            mah={RESULTS_LIST_MAX_HEIGHT}
            type="auto"
            // A list that scrolls must be reachable from the keyboard, whatever its rows hold.
            viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': 'Contacted people' }}
          >
            <Stack gap="xs" pr="xs">
              {items.map((item) => (
                <HistoryRow key={item.dm_id} item={item} nowMs={nowMs} />
              ))}
            </Stack>
          </ScrollArea.Autosize>
        )}
        {pages > 1 && (
          <Group justify="center">
            <Pagination total={pages} value={Math.min(page, pages)} onChange={setPage} size="sm" />
          </Group>
        )}
      </Stack>
    );
  }

  return (
    <Stack gap="sm">
      <Group gap="sm">
        <Text size="sm" fw={500} id="history-filter-label">
          Reply
        </Text>
        <SegmentedControl
          size="xs"
          aria-labelledby="history-filter-label"
          value={filter}
          onChange={(value) => {
            setFilter(FILTERS.find((f) => f.value === value)?.value ?? 'all');
            setPage(1);
          }}
          data={FILTERS}
        />
        {history.data && (
          <Text size="xs" c="dimmed">
            {history.data.total} {history.data.total === 1 ? 'person' : 'people'}
          </Text>
        )}
        {!readOnly && (
          <Button
            size="compact-sm"
            variant="light"
            ml="auto"
            loading={check.isPending}
            onClick={() => check.mutate()}
            title="Replies are also checked automatically every 5 minutes"
          >
            Check for replies
          </Button>
        )}
      </Group>
      {body}
    </Stack>
  );
}
