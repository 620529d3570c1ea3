import { useState, type ReactNode } from 'react';
import {
  Alert,
  Center,
  Group,
  Loader,
  NativeSelect,
  Pagination,
  ScrollArea,
  SegmentedControl,
  Stack,
  Tabs,
  Text,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { UseQueryResult } from '@tanstack/react-query';
import type { TLeadSort, TPage } from '@threadreach/contract';
import { ConfirmDeleteDialog } from '../../../components/ui/confirm-delete-dialog';
import { SkipLink, type TSkipTo } from '../../../components/ui/skip-link';
import { useMinuteClock } from '../../../lib/clock';
import { deletedText, deleteFailedText } from '../../../lib/delete-texts';
import { generationFailureText, useGenerateDm, type TDmLead } from '../../dms';
import { localPrefs } from '../../../lib/local-prefs';
import { HistoryList } from '../../history';
import {
  LEADS_PAGE_SIZE,
  useComments,
  useDeleteLead,
  usePosts,
  useProfiles,
  type TLeadKind,
} from '../hooks/use-leads';
import { DeleteAllLeads } from './delete-all-leads';
import { CommentItem, PostItem, ProfileItem } from './lead-item';
import { RESULTS_LIST_MAX_HEIGHT } from '../../../components/ui/results-list-height';

const KINDS: TLeadKind[] = ['posts', 'comments', 'users'];
/** The results tabs: the three kinds of leads, then the people already contacted. */
const TABS = [...KINDS, 'history'] as const;
type TTab = (typeof TABS)[number];
const ITEM_NAMES: Record<TLeadKind, string> = { posts: 'Post', comments: 'Comment', users: 'Profile' };
const DM_SOURCES: Record<TLeadKind, TDmLead['kind']> = {
  posts: 'post',
  comments: 'comment',
  users: 'profile',
};
const MIN_SCORES = ['0', '25', '50', '75'];
const SORTS: { value: TLeadSort; label: string }[] = [
  { value: 'newest', label: 'Newest first' },
  { value: 'intent', label: 'Highest intent first' },
];

/** A stored or chosen order, newest first when it is none of them. */
function sortOf(value: string | null): TLeadSort {
  return SORTS.find((s) => s.value === value)?.value ?? 'newest';
}

/** A stored minimum intent score, any when it is none of the choices. */
function savedMinScore(projectId: string): number {
  const saved = localPrefs.getMinScore(projectId);
  return Number(MIN_SCORES.find((s) => s === saved) ?? '0');
}

function savedTab(projectId: string): TTab {
  const saved = localPrefs.getTab(projectId);
  return TABS.find((k) => k === saved) ?? 'posts';
}

/** Where leads come from, for a first look at an empty list. */
export const SEARCH_HINT =
  'Press Search above to read your approved subreddits now; new posts and comments are also found every minute.';

/** An empty list may only be filtered: the hint says so. */
export const scoreHint = (minScore: number) =>
  `Only leads scoring ${minScore}+ are shown: choose Any to see them all.`;

interface TLeadListProps<T> {
  query: UseQueryResult<TPage<T>>;
  page: number;
  onPage: (page: number) => void;
  empty: string;
  /** Under the empty text: how leads get here, or what hides them. */
  emptyHint?: string | undefined;
  /** Above a list that has items: what acts on all of it. */
  toolbar?: ReactNode;
  /** Before a list that has items: a link past its rows' many tab stops. */
  skipTo?: TSkipTo | undefined;
  children: (item: T) => ReactNode;
}

function LeadList<T extends { id: string }>({
  query,
  page,
  onPage,
  empty,
  emptyHint,
  toolbar,
  skipTo,
  children,
}: TLeadListProps<T>) {
  if (query.isPending) {
    return (
      <Center py="md">
        <Loader aria-label="Loading results" />
      </Center>
    );
  }
  if (query.isError) {
    return (
      <Alert color="red" role="alert">
        {query.error.message}
      </Alert>
    );
  }
  const { items, total } = query.data;
  const pages = Math.max(1, Math.ceil(total / LEADS_PAGE_SIZE));
  return (
    <Stack gap="sm">
      {items.length === 0 ? (
        <Stack gap={2}>
          <Text c="dimmed" size="sm">
            {empty}
          </Text>
          {emptyHint && (
            <Text c="dimmed" size="xs">
              {emptyHint}
            </Text>
          )}
        </Stack>
      ) : (
        <>
          {skipTo && <SkipLink to={skipTo.id}>{skipTo.label}</SkipLink>}
          {toolbar && <Group justify="flex-end">{toolbar}</Group>}
          <ScrollArea.Autosize mah={RESULTS_LIST_MAX_HEIGHT} type="auto">
            <Stack gap="xs" pr="xs">
              {items.map((item) => (
                <div key={item.id}>{children(item)}</div>
              ))}
            </Stack>
          </ScrollArea.Autosize>
        </>
      )}
      {pages > 1 && (
        <Group justify="center">
          <Pagination total={pages} value={Math.min(page, pages)} onChange={onPage} size="sm" />
        </Group>
      )}
    </Stack>
  );
}

export interface TLeadTabsProps {
  projectId: string;
  readOnly: boolean;
  /** Runs after Generate DM wrote a DM. */
  onDmGenerated?: () => void;
  /** The section after the results, which each list of leads offers to skip to. */
  skipTo?: TSkipTo;
}

/**
 * Step 4's results: Posts, Comments and Users, newest or highest intent first, with a minimum intent
 * score; and History.
 */
export function LeadTabs({ projectId, readOnly, onDmGenerated, skipTo }: TLeadTabsProps) {
  const [tab, setTab] = useState<TTab>(() => savedTab(projectId));
  const [minScore, setMinScore] = useState(() => savedMinScore(projectId));
  const [sort, setSort] = useState<TLeadSort>(() => sortOf(localPrefs.getSort(projectId)));
  const [pages, setPages] = useState<Record<TLeadKind, number>>({ posts: 1, comments: 1, users: 1 });
  const posts = usePosts(projectId, pages.posts, minScore, sort);
  const comments = useComments(projectId, pages.comments, minScore, sort);
  const profiles = useProfiles(projectId, pages.users, minScore, sort);
  const firstPages = () => setPages({ posts: 1, comments: 1, users: 1 });
  const remove = useDeleteLead(projectId);
  const generateDm = useGenerateDm(projectId);
  const nowMs = useMinuteClock();

  const onPage = (kind: TLeadKind) => (page: number) => setPages((p) => ({ ...p, [kind]: page }));
  const deleting = (id: string) => remove.isPending && remove.variables?.id === id;
  /** The lead whose Delete asks for confirmation, named as the question says; kept while the dialog fades. */
  const [asking, setAsking] = useState<{ kind: TLeadKind; id: string; what: string; open: boolean } | null>(
    null,
  );
  const closeAsking = () => setAsking((a) => a && { ...a, open: false });
  const deleteOne = ({ kind, id }: { kind: TLeadKind; id: string }) => {
    const item = ITEM_NAMES[kind];
    remove.mutate(
      { kind, id },
      {
        onSettled: closeAsking,
        onSuccess: () => notifications.show({ color: 'green', message: deletedText(item) }),
        onError: () => notifications.show({ color: 'red', message: deleteFailedText(item) }),
      },
    );
  };
  const onGenerateDm = (kind: TLeadKind, id: string) => () =>
    generateDm.mutate(
      { kind: DM_SOURCES[kind], id },
      {
        onSuccess: ({ generated_messages, skipped, failed }) => {
          const [written] = generated_messages;
          if (written) {
            onDmGenerated?.();
            notifications.show({
              color: 'green',
              message: `DM generated for u/${written.recipient_username}`,
            });
          } else if (skipped[0]) {
            notifications.show({ color: 'yellow', message: skipped[0].detail });
          } else {
            notifications.show({ color: 'red', message: generationFailureText(failed[0]?.detail) });
          }
        },
        onError: (error) => notifications.show({ color: 'red', message: generationFailureText(error) }),
      },
    );
  /** `what` names the lead in the question its Delete asks. */
  const rowProps = (kind: TLeadKind, id: string, what: string) => ({
    nowMs,
    readOnly,
    deleting: deleting(id),
    onDelete: () => setAsking({ kind, id, what, open: true }),
    onGenerateDm: onGenerateDm(kind, id),
    generatingDm: generateDm.isPending && generateDm.variables?.id === id,
    dmsAt: skipTo?.id,
  });
  const count = (q: { data?: { total: number } }) => (q.data ? ` (${q.data.total})` : '');
  /** What a tab's list shows, from which page, and its Delete all. */
  const listProps = <T,>(kind: TLeadKind, query: UseQueryResult<TPage<T>>, empty: string) => ({
    query,
    page: pages[kind],
    onPage: onPage(kind),
    empty,
    emptyHint: minScore > 0 ? scoreHint(minScore) : kind === 'users' ? undefined : SEARCH_HINT,
    skipTo,
    toolbar: readOnly ? undefined : (
      <DeleteAllLeads
        projectId={projectId}
        kind={kind}
        total={query.data?.total ?? 0}
        minScore={minScore}
        onDeleted={() => onPage(kind)(1)}
      />
    ),
  });

  return (
    <Stack gap="sm">
      <Group gap="lg">
        <Group gap="sm">
          <Text size="sm" fw={500} id="min-intent-label">
            Minimum intent score
          </Text>
          <SegmentedControl
            size="xs"
            aria-labelledby="min-intent-label"
            value={String(minScore)}
            onChange={(value) => {
              setMinScore(Number(value));
              localPrefs.setMinScore(projectId, value);
              firstPages();
            }}
            data={MIN_SCORES.map((s) => ({ value: s, label: s === '0' ? 'Any' : `${s}+` }))}
          />
        </Group>
        <Group gap="sm">
          <Text size="sm" fw={500} id="lead-sort-label">
            Sort by
          </Text>
          <NativeSelect
            size="xs"
            aria-labelledby="lead-sort-label"
            value={sort}
            onChange={(event) => {
              const next = sortOf(event.currentTarget.value);
              setSort(next);
              localPrefs.setSort(projectId, next);
              firstPages();
            }}
            data={SORTS}
          />
        </Group>
      </Group>
      <Tabs
        value={tab}
        onChange={(value) => {
          const next = TABS.find((k) => k === value);
          if (!next) return;
          setTab(next);
          localPrefs.setTab(projectId, next);
        }}
        keepMounted={false}
      >
        <Tabs.List>
          <Tabs.Tab value="posts">Posts{count(posts)}</Tabs.Tab>
          <Tabs.Tab value="comments">Comments{count(comments)}</Tabs.Tab>
          <Tabs.Tab value="users">Users{count(profiles)}</Tabs.Tab>
          <Tabs.Tab value="history">History</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="posts" pt="sm">
          <LeadList {...listProps('posts', posts, 'No posts found yet.')}>
            {(post) => <PostItem item={post} {...rowProps('posts', post.id, `the post "${post.title}"`)} />}
          </LeadList>
        </Tabs.Panel>
        <Tabs.Panel value="comments" pt="sm">
          <LeadList {...listProps('comments', comments, 'No comments found yet.')}>
            {(comment) => (
              <CommentItem
                item={comment}
                {...rowProps('comments', comment.id, `the comment by u/${comment.author}`)}
              />
            )}
          </LeadList>
        </Tabs.Panel>
        <Tabs.Panel value="users" pt="sm">
          <LeadList {...listProps('users', profiles, 'No users found yet.')}>
            {(profile) => (
              <ProfileItem
                item={profile}
                {...rowProps('users', profile.id, `the profile of u/${profile.reddit_username}`)}
              />
            )}
          </LeadList>
        </Tabs.Panel>
        <Tabs.Panel value="history" pt="sm">
          <HistoryList projectId={projectId} readOnly={readOnly} />
        </Tabs.Panel>
      </Tabs>
      {asking && (
        <ConfirmDeleteDialog
          opened={asking.open}
          title={`Delete ${ITEM_NAMES[asking.kind].toLowerCase()}`}
          question={`Delete ${asking.what}? It is not found again.`}
          deleting={remove.isPending}
          onConfirm={() => deleteOne(asking)}
          onClose={closeAsking}
        />
      )}
    </Stack>
  );
}
