import { useId } from 'react';
import { Group, Paper, Stack, Title } from '@mantine/core';
import { ACCOUNT_MIN_AGE_DAYS, OUTSIDE_WORKING_HOURS_REASON } from '@threadreach/contract';
import { useQueryClient } from '@tanstack/react-query';
import { accountKeys, useAccounts } from '../../accounts';
import { AgentModePanel, agentKeys, useLogBehavior } from '../../agent';
import { dmKeys, DmMessagesPanel } from '../../dms';
import { DoNotContactButton } from '../../do-not-contact';
import { CampaignStatistics, historyKeys } from '../../history';
import { useProjects } from '../../projects';
import { SendAllDmsButton, SendingStatusPanel, useSendDm } from '../../sending';
import { ExportCsvButton, WebhookPanel } from './export-panel';
import { LeadTabs } from './lead-tabs';
import { SearchPanel } from './search-panel';
import { leadKeys } from '../hooks/use-leads';

export interface TLeadsStepProps {
  projectId: string;
  readOnly: boolean;
  /** Admins may manage the agent of a project they may not otherwise change (spec section 6). */
  agentReadOnly?: boolean;
}

/**
 * Step 4: the AI mode (assistant or agent, with what the agent learned), search settings, keyword filtering, a search now, the leads found (posts, comments, users), the
 * DM messages written to them with Send and Send All DMs, and what sending is doing.
 */
export function LeadsStep({ projectId, readOnly, agentReadOnly }: TLeadsStepProps) {
  const projects = useProjects();
  const project = projects.data?.items.find((p) => p.id === projectId);
  const queryClient = useQueryClient();
  const accounts = useAccounts(projectId);
  // What the accounts that can sign in to Reddit, and are in their working hours now, still send today:
  // Send All's question says so when short. With no account signed in, Send All itself says one is needed.
  const signedIn = accounts.data?.items.filter((a) => a.auth_status === 'valid') ?? [];
  const roomToday =
    signedIn.length > 0
      ? signedIn
          .filter((a) => a.capacity.reason !== OUTSIDE_WORKING_HOURS_REASON)
          .reduce((sum, a) => sum + a.remaining_today, 0)
      : null;
  const tooYoung =
    signedIn.length > 0 && signedIn.every((a) => (a.account_age_days ?? 0) < ACCOUNT_MIN_AGE_DAYS);
  const reload = (queryKey: readonly unknown[]) => void queryClient.invalidateQueries({ queryKey });
  // A DM written or deleted changes the campaign's counts, and which leads say their author has one.
  const dmsCounted = () => {
    reload(historyKeys.statistics(projectId));
    reload(leadKeys.all(projectId));
  };
  // A send changes the DM's state in the list, History and its counts, what its account has left today,
  // and the leads (a contacted person leaves them).
  const afterSending = () => {
    reload(dmKeys.all(projectId));
    reload(historyKeys.all(projectId));
    reload(accountKeys.list(projectId));
    reload(leadKeys.all(projectId));
  };
  // The list may have changed, here or elsewhere: the leads leave out the people on it, and their DMs say
  // they cannot be sent. (Its own changes also read the DMs again as each is answered.)
  const onListClosed = () => {
    reload(leadKeys.all(projectId));
    reload(dmKeys.all(projectId));
  };
  // The server refuses sends while the agent runs: started elsewhere, it is read again and its overlay comes up.
  const agentRunning = () => reload(agentKeys.settings(projectId));
  // Agent mode learns from what the customer does with the drafts.
  const logBehavior = useLogBehavior(projectId);
  const { send } = useSendDm(projectId, {
    onSettled: afterSending,
    onSent: (dm) => logBehavior('message_sent', { dm_id: dm.id }),
    onAgentRunning: agentRunning,
  });
  // A page of leads or DMs is dozens of tab stops: each list has a link past it to the next section.
  const dmsId = useId();
  const sendingId = useId();

  return (
    <Paper withBorder p="lg" radius="md">
      <Stack gap="md">
        <Group justify="space-between">
          <Title order={2}>Posts &amp; Messages</Title>
          <Group gap="xs">
            <DoNotContactButton readOnly={readOnly} onClosed={onListClosed} />
            <ExportCsvButton projectId={projectId} />
          </Group>
        </Group>
        <AgentModePanel projectId={projectId} readOnly={agentReadOnly ?? readOnly} />
        <SearchPanel
          projectId={projectId}
          readOnly={readOnly}
          withoutKeywords={project?.without_keywords ?? false}
        />
        <LeadTabs
          projectId={projectId}
          readOnly={readOnly}
          onDmGenerated={dmsCounted}
          skipTo={{ id: dmsId, label: 'Skip to DM messages' }}
        />
        <CampaignStatistics projectId={projectId} />
        <DmMessagesPanel
          projectId={projectId}
          id={dmsId}
          skipTo={{ id: sendingId, label: 'Skip to sending status' }}
          readOnly={readOnly}
          onSend={readOnly ? undefined : send}
          actions={({ unsavedEdits, readyToSend }) => (
            <SendAllDmsButton
              projectId={projectId}
              readOnly={readOnly}
              unsavedEdits={unsavedEdits}
              readyToSend={readyToSend}
              roomToday={roomToday}
              tooYoung={tooYoung}
              onSettled={afterSending}
              onAgentRunning={agentRunning}
            />
          )}
          onEdited={(dm, saved) => {
            logBehavior('message_edited', { dm_id: dm.id, before: dm.message_content, after: saved });
            // The server kept the saved edit as an example: the learning panel counts it.
            reload(agentKeys.examples(projectId));
          }}
          onDeleted={(dm) => {
            dmsCounted();
            logBehavior('message_deleted', { dm_id: dm.id });
          }}
          onGenerated={dmsCounted}
          onWritten={dmsCounted}
        />
        <SendingStatusPanel
          projectId={projectId}
          id={sendingId}
          readOnly={readOnly}
          onSettled={afterSending}
        />
        <WebhookPanel projectId={projectId} readOnly={readOnly} />
      </Stack>
    </Paper>
  );
}
