import { useState } from 'react';
import { Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { DELETE_ALL_FAILED, deletedAllText } from '../../../lib/delete-texts';
import { useDeleteAllLeads, type TLeadKind } from '../hooks/use-leads';

const NAMES: Record<TLeadKind, { one: string; many: string }> = {
  posts: { one: 'post', many: 'posts' },
  comments: { one: 'comment', many: 'comments' },
  users: { one: 'profile', many: 'profiles' },
};

interface TDeleteAllLeadsProps {
  projectId: string;
  kind: TLeadKind;
  /** What the list shows across its pages. */
  total: number;
  minScore: number;
  onDeleted: () => void;
}

/** 'Delete all', then a second click on a question that says how many go: the list on every page. */
export function DeleteAllLeads({ projectId, kind, total, minScore, onDeleted }: TDeleteAllLeadsProps) {
  const remove = useDeleteAllLeads(projectId);
  // Focus follows the question: to Keep when it is asked, back to Delete all when it is withdrawn.
  const [step, setStep] = useState<'idle' | 'confirming' | 'kept'>('idle');
  const { one, many } = NAMES[kind];

  const confirm = async () => {
    try {
      const { deleted_count } = await remove.mutateAsync({ kind, minScore });
      notifications.show({ color: 'green', message: deletedAllText(deleted_count, one, many) });
      onDeleted();
    } catch {
      notifications.show({ color: 'red', message: DELETE_ALL_FAILED });
    }
    setStep('idle');
  };

  if (step !== 'confirming') {
    return (
      <Button
        size="compact-xs"
        variant="subtle"
        color="red"
        onClick={() => setStep('confirming')}
        autoFocus={step === 'kept'}
      >
        Delete all
      </Button>
    );
  }
  const scored = minScore > 0 ? ` scoring ${minScore}+` : '';
  return (
    <Group gap="xs" wrap="wrap" justify="flex-end">
      <Text size="sm" fw={600}>
        {`Delete all ${total} ${total === 1 ? one : many}${scored}? They are not found again.`}
      </Text>
      <Button variant="default" size="compact-xs" onClick={() => setStep('kept')} autoFocus>
        Keep
      </Button>
      <Button color="red" size="compact-xs" loading={remove.isPending} onClick={() => void confirm()}>
        Delete all
      </Button>
    </Group>
  );
}
