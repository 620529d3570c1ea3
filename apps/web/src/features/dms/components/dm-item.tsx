import type { ReactNode } from 'react';
import { Badge, Button, Group, Paper, Stack, Text, Textarea } from '@mantine/core';
import {
  DM_MAX_LENGTH,
  dmLength,
  DM_WARN_LENGTH,
  MATCHED_KEYWORDS_SHOWN,
  type TDmMessage,
} from '@threadreach/contract';
import { DisabledReason } from '../../../components/ui/disabled-reason';
import { useAiBlockReason } from '../../auth';
import {
  isLocked,
  SAVE_BEFORE_REGENERATING,
  SAVE_BEFORE_SENDING,
  SEND_UNAVAILABLE,
  SOURCE_LABELS,
  sourceOf,
  stateLabel,
  textProblem,
} from '../dm-texts';

function Keywords({ keywords }: { keywords: readonly string[] }) {
  if (keywords.length === 0) return null;
  const shown = keywords.slice(0, MATCHED_KEYWORDS_SHOWN);
  return (
    <Group gap={4} aria-label="Matched keywords">
      {shown.map((k) => (
        <Badge key={k} size="sm" variant="outline" tt="none">
          {k}
        </Badge>
      ))}
      {keywords.length > shown.length && (
        <Text size="xs" c="dimmed">
          +{keywords.length - shown.length} more
        </Text>
      )}
    </Group>
  );
}

/** The n/400 counter, red from DM_WARN_LENGTH characters (spec section 5). */
export function CharacterCounter({ length }: { length: number }) {
  return (
    <Text size="xs" c={length >= DM_WARN_LENGTH ? 'red' : 'dimmed'} aria-label="Characters used">
      {length}/{DM_MAX_LENGTH}
    </Text>
  );
}

function Outcome({ dm }: { dm: TDmMessage }) {
  const when = (iso: string) => new Date(iso).toLocaleString();
  let text: ReactNode = null;
  if (dm.sent_at) text = `Sent ${when(dm.sent_at)}`;
  else if (dm.state === 'failed')
    text = `Not sent: ${dm.outcome_reason ?? dm.outcome_code ?? 'sending failed'}`;
  else if (dm.state === 'queued' && dm.scheduled_for) text = `Sends after ${when(dm.scheduled_for)}`;
  // A DM taken back from the queue (no account could send it, the agent stopped, the plan ended) says why.
  else if (dm.state === 'approved' && dm.outcome_reason) text = dm.outcome_reason;
  else if (dm.state === 'unknown') text = dm.outcome_reason ?? 'Checking whether Reddit delivered it';
  else if (dm.state === 'expired') text = 'Expired: the post is too old for a message about it';
  if (!text) return null;
  return (
    <Text size="xs" c={dm.state === 'failed' ? 'red' : 'dimmed'}>
      {text}
    </Text>
  );
}

export interface TDmItemProps {
  dm: TDmMessage;
  /** The text in the editor: the saved one unless the customer changed it. */
  value: string;
  onChange: (text: string) => void;
  readOnly: boolean;
  saving: boolean;
  regenerating: boolean;
  deleting: boolean;
  onSave: () => void;
  onUndo: () => void;
  onRegenerate: () => void;
  onDelete: () => void;
  /** Sends the saved DM; supplied by the sending feature. */
  onSend?: ((dm: TDmMessage) => void) | undefined;
}

/** One DM of step 4: its source, the editable text with its counter, and Save, Regenerate, Delete, Send. */
export function DmItem(props: TDmItemProps) {
  const { dm, value, readOnly } = props;
  const aiBlocked = useAiBlockReason();
  const locked = isLocked(dm);
  const unsaved = value !== dm.message_content;
  const problem = unsaved ? textProblem(value) : null;
  const state = stateLabel(dm);
  const source = sourceOf(dm);
  const busy = props.saving || props.regenerating || props.deleting;
  // Someone on the do-not-contact list, or who already answered, is never sent a DM, nor is a DM whose lead
  // is too old: that outlasts any other reason. The lead's age comes first, then the list, as in the
  // server's refusal.
  const recipientBlocked = dm.do_not_contact?.detail ?? dm.already_answered?.detail ?? null;
  const expired = dm.lead_expired?.detail ?? null;
  const sendBlocked =
    expired ?? recipientBlocked ?? (!props.onSend ? SEND_UNAVAILABLE : unsaved ? SAVE_BEFORE_SENDING : null);
  const regenerateBlocked = aiBlocked ?? (unsaved ? SAVE_BEFORE_REGENERATING : null);

  return (
    <Paper withBorder p="sm" radius="md" component="article" aria-label={`DM to u/${dm.recipient_username}`}>
      <Stack gap={6}>
        <Group gap={6} wrap="wrap">
          <Badge size="sm" variant="light" color="gray">
            {SOURCE_LABELS[source]}
          </Badge>
          <Text span size="sm" fw={600}>
            u/{dm.recipient_username}
          </Text>
          {dm.subreddit && (
            <Text span size="xs" c="dimmed">
              r/{dm.subreddit}
            </Text>
          )}
          <Badge size="sm" color={state.color} variant="light">
            {state.label}
          </Badge>
          {unsaved && !locked && (
            <Badge size="sm" color="yellow" variant="filled">
              Unsaved
            </Badge>
          )}
        </Group>
        {dm.post_title && (
          <Text size="sm" lineClamp={1}>
            {source === 'comment' ? `On: ${dm.post_title}` : dm.post_title}
          </Text>
        )}
        <Keywords keywords={dm.matched_keywords} />
        <Textarea
          aria-label={`Message to u/${dm.recipient_username}`}
          value={locked ? dm.message_content : value}
          onChange={(e) => props.onChange(e.currentTarget.value)}
          readOnly={locked || readOnly}
          rows={4}
          error={problem}
        />
        <Group justify="space-between" gap="xs">
          <CharacterCounter length={dmLength(locked ? dm.message_content : value)} />
          <Outcome dm={dm} />
        </Group>
        {/* A DM that failed for its recipient already says so in its outcome. */}
        {!locked && recipientBlocked && recipientBlocked !== dm.outcome_reason && (
          <Text size="xs" c="orange">
            {recipientBlocked}
          </Text>
        )}
        {/* An expired DM already says so in its outcome. */}
        {expired && dm.state !== 'expired' && (
          <Text size="xs" c="orange">
            {expired}
          </Text>
        )}
        {!locked && (
          <Group gap="xs">
            <Button
              size="compact-sm"
              onClick={props.onSave}
              loading={props.saving}
              disabled={readOnly || !unsaved || problem !== null || (busy && !props.saving)}
            >
              Save
            </Button>
            {unsaved && (
              <Button size="compact-sm" variant="default" onClick={props.onUndo} disabled={busy}>
                Undo changes
              </Button>
            )}
            <DisabledReason why={readOnly ? null : regenerateBlocked}>
              <Button
                size="compact-sm"
                variant="light"
                onClick={props.onRegenerate}
                loading={props.regenerating}
                disabled={readOnly || regenerateBlocked !== null || (busy && !props.regenerating)}
              >
                Regenerate
              </Button>
            </DisabledReason>
            <DisabledReason why={readOnly ? null : sendBlocked}>
              <Button
                size="compact-sm"
                variant="light"
                color="green"
                onClick={() => props.onSend?.(dm)}
                disabled={readOnly || busy || sendBlocked !== null}
              >
                Send
              </Button>
            </DisabledReason>
            <Button
              size="compact-sm"
              variant="subtle"
              color="red"
              onClick={props.onDelete}
              loading={props.deleting}
              disabled={readOnly || (busy && !props.deleting)}
            >
              Delete
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
