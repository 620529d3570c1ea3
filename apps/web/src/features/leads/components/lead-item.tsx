import type { ReactNode } from 'react';
import { Anchor, Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import {
  COMMENT_PREVIEW_LENGTH,
  MATCHED_KEYWORDS_SHOWN,
  plural,
  POST_PREVIEW_LENGTH,
  type TComment,
  type TPost,
  type TProfile,
} from '@threadreach/contract';
import { matchesIn } from '../highlight';
import { REDDIT_WEB_URL, formatAccountAge, formatKarma, redditUrl, timeAgo } from '../lead-format';
import { HighlightedText } from './highlighted-text';
import { IntentBadge } from './intent-badge';
import { DisabledReason } from '../../../components/ui/disabled-reason';
import { goToSection } from '../../../components/ui/skip-link';
import { useAiBlockReason, usePublicConfig } from '../../auth';

/** The first MATCHED_KEYWORDS_SHOWN matched keywords, and how many more there are. */
export function KeywordBadges({ keywords }: { keywords: readonly string[] }) {
  if (keywords.length === 0) return null;
  const shown = keywords.slice(0, MATCHED_KEYWORDS_SHOWN);
  const more = keywords.length - shown.length;
  return (
    <Group gap={4} aria-label="Matched keywords">
      {shown.map((k) => (
        <Badge key={k} size="sm" variant="outline" tt="none">
          {k}
        </Badge>
      ))}
      {more > 0 && (
        <Text size="xs" c="dimmed">
          +{more} more
        </Text>
      )}
    </Group>
  );
}

const ACCOUNT_UNAVAILABLE = 'account deleted or suspended';

const tooOldTitle = (days: number | undefined) =>
  `Reddit posts and comments older than ${days === undefined ? 'that' : plural(days, 'day')} are not messaged: a DM about them would expire unsent.`;

function Meta({ children }: { children: ReactNode }) {
  return (
    <Group gap={6} wrap="wrap">
      {children}
    </Group>
  );
}

function Dot() {
  return (
    <Text span size="xs" c="dimmed" aria-hidden>
      ·
    </Text>
  );
}

/** A link to the item on Reddit: in the demo, the simulated Reddit's page of it. */
function ViewOnReddit({ path }: { path: string }) {
  const base = usePublicConfig().data?.reddit_web_url ?? REDDIT_WEB_URL;
  return (
    <Anchor size="xs" href={redditUrl(path, base)} target="_blank" rel="noopener noreferrer">
      View on Reddit
    </Anchor>
  );
}

interface TAuthorProps {
  name: string;
  ageDays: number | null;
  karma: number | null;
  /** Reddit said the account is deleted or suspended. */
  unavailable: boolean;
}

function Author({ name, ageDays, karma, unavailable }: TAuthorProps) {
  return (
    <>
      <Text span size="xs" fw={600}>
        u/{name}
      </Text>
      <Dot />
      {unavailable ? (
        <Text span size="xs" c="red.9">
          {ACCOUNT_UNAVAILABLE}
        </Text>
      ) : (
        <>
          <Text span size="xs" c="dimmed">
            {formatAccountAge(ageDays)}
          </Text>
          <Dot />
          <Text span size="xs" c="dimmed">
            {formatKarma(karma)}
          </Text>
        </>
      )}
    </>
  );
}

interface TRowShellProps {
  label: string;
  children: ReactNode;
  score: number;
  reasons: string[];
  matches?: TPost['matches'];
  deleting: boolean;
  readOnly: boolean;
  onDelete: () => void;
  /** Writes a DM to the lead's author. */
  onGenerateDm?: (() => void) | undefined;
  generatingDm?: boolean | undefined;
  /** The author already has a DM in the project: a second one would be refused. */
  hasDm: boolean;
  /** The author's account is deleted or suspended: no DM can reach them. */
  unavailable: boolean;
  /** The post or comment is too old: a DM about it would expire unsent. */
  tooOld?: boolean | undefined;
  author: string;
  /** The id of the DM messages section, to which "DM written" leads. */
  dmsAt?: string | undefined;
}

/** A gray badge in place of Generate DM, saying why there is none; `title` says more on hover. */
const noteBadge = (title: string) => ({ variant: 'light', color: 'gray', tt: 'none', title }) as const;

const dmWrittenBadge = (author: string) =>
  noteBadge(`u/${author} already has a DM in this project: see DM messages.`);

function RowShell({
  label,
  children,
  score,
  reasons,
  matches,
  deleting,
  readOnly,
  onDelete,
  onGenerateDm,
  generatingDm = false,
  hasDm,
  unavailable,
  tooOld = false,
  author,
  dmsAt,
}: TRowShellProps) {
  const expiryDays = usePublicConfig().data?.dm_expiry_days;
  const aiBlocked = useAiBlockReason();
  // Why no DM can be written to this lead, if none can.
  const unreachable = unavailable
    ? {
        text: 'Cannot be messaged',
        title: `u/${author}'s Reddit account is deleted or suspended: a DM cannot reach them.`,
      }
    : tooOld
      ? { text: 'Too old to message', title: tooOldTitle(expiryDays) }
      : null;
  return (
    <Paper withBorder p="sm" radius="md" component="article" aria-label={label}>
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
        <Stack gap={6} style={{ flex: 1, minWidth: 0 }}>
          {children}
        </Stack>
        <Stack gap={6} align="flex-end">
          <IntentBadge score={score} reasons={reasons} matches={matches} />
          {hasDm &&
            (dmsAt ? (
              <Badge
                component="a"
                href={`#${dmsAt}`}
                onClick={(event) => {
                  event.preventDefault();
                  goToSection(dmsAt);
                }}
                style={{ cursor: 'pointer' }}
                {...dmWrittenBadge(author)}
              >
                DM written
              </Badge>
            ) : (
              <Badge {...dmWrittenBadge(author)}>DM written</Badge>
            ))}
          {onGenerateDm && !hasDm && unreachable && (
            <Badge {...noteBadge(unreachable.title)}>{unreachable.text}</Badge>
          )}
          {onGenerateDm && !hasDm && !unreachable && (
            <DisabledReason why={readOnly ? null : aiBlocked}>
              <Button
                size="compact-xs"
                variant="light"
                onClick={onGenerateDm}
                loading={generatingDm}
                disabled={readOnly || aiBlocked !== null}
              >
                Generate DM
              </Button>
            </DisabledReason>
          )}
          <Button
            size="compact-xs"
            variant="subtle"
            color="red"
            onClick={onDelete}
            loading={deleting}
            disabled={readOnly}
          >
            Delete
          </Button>
        </Stack>
      </Group>
    </Paper>
  );
}

interface TItemProps<T> {
  item: T;
  nowMs: number;
  deleting: boolean;
  readOnly: boolean;
  onDelete: () => void;
  onGenerateDm?: (() => void) | undefined;
  generatingDm?: boolean | undefined;
  dmsAt?: string | undefined;
}

/** Author, subreddit, points, age and the link: the same line under a post and a comment. */
function LeadMeta({ item, nowMs }: { item: TPost | TComment; nowMs: number }) {
  return (
    <Meta>
      <Author
        name={item.author}
        ageDays={item.account_age_days}
        karma={item.comment_karma}
        unavailable={item.account_unavailable}
      />
      <Dot />
      <Text span size="xs" c="dimmed">
        r/{item.subreddit}
      </Text>
      <Dot />
      <Text span size="xs" c="dimmed">
        {plural(item.score, 'point')} · {timeAgo(item.created_utc, nowMs)}
      </Text>
      <Dot />
      <ViewOnReddit path={item.permalink} />
    </Meta>
  );
}

export function PostItem({ item, nowMs, ...actions }: TItemProps<TPost>) {
  return (
    <RowShell
      label={item.title}
      hasDm={item.has_dm}
      unavailable={item.account_unavailable}
      tooOld={item.too_old_to_message}
      author={item.author}
      score={item.intent_score}
      reasons={item.intent_reasons}
      matches={item.matches}
      {...actions}
    >
      <HighlightedText fw={600} text={item.title} matches={matchesIn(item.matches, 'title')} />
      {item.content && (
        <HighlightedText
          size="sm"
          c="dimmed"
          text={item.content}
          matches={matchesIn(item.matches, 'body')}
          limit={POST_PREVIEW_LENGTH}
        />
      )}
      <KeywordBadges keywords={item.matched_keywords} />
      <LeadMeta item={item} nowMs={nowMs} />
    </RowShell>
  );
}

export function CommentItem({ item, nowMs, ...actions }: TItemProps<TComment>) {
  return (
    <RowShell
      label={`Comment by u/${item.author}`}
      hasDm={item.has_dm}
      unavailable={item.account_unavailable}
      tooOld={item.too_old_to_message}
      author={item.author}
      score={item.intent_score}
      reasons={item.intent_reasons}
      matches={item.matches}
      {...actions}
    >
      <HighlightedText
        size="sm"
        text={item.content}
        matches={matchesIn(item.matches, 'body')}
        limit={COMMENT_PREVIEW_LENGTH}
      />
      {item.post_title && (
        <Text size="xs" c="dimmed" lineClamp={1}>
          On: {item.post_title}
        </Text>
      )}
      <KeywordBadges keywords={item.matched_keywords} />
      <LeadMeta item={item} nowMs={nowMs} />
    </RowShell>
  );
}

export function ProfileItem({ item, nowMs: _nowMs, ...actions }: TItemProps<TProfile>) {
  return (
    <RowShell
      label={`u/${item.reddit_username}`}
      hasDm={item.has_dm}
      unavailable={item.account_unavailable}
      author={item.reddit_username}
      score={item.intent_score}
      reasons={item.intent_reasons}
      {...actions}
    >
      <Meta>
        <Author
          name={item.reddit_username}
          ageDays={item.account_age_days}
          karma={item.comment_karma}
          unavailable={item.account_unavailable}
        />
        <Dot />
        <Text span size="xs" c="dimmed">
          {item.lead_count} matching {item.lead_count === 1 ? 'post or comment' : 'posts and comments'}
        </Text>
        <Dot />
        <ViewOnReddit path={`/user/${encodeURIComponent(item.reddit_username)}`} />
      </Meta>
      {item.bio_content && (
        <HighlightedText
          size="sm"
          c="dimmed"
          text={item.bio_content}
          matches={[]}
          limit={POST_PREVIEW_LENGTH}
        />
      )}
      <KeywordBadges keywords={item.matched_keywords} />
    </RowShell>
  );
}
