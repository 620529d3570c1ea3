import { notifications } from '@mantine/notifications';
import { AskFirst } from '../../../components/ui/ask-first';
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
  const { one, many } = NAMES[kind];

  const confirm = async (close: () => void) => {
    try {
      const { deleted_count } = await remove.mutateAsync({ kind, minScore });
      notifications.show({ color: 'green', message: deletedAllText(deleted_count, one, many) });
      onDeleted();
    } catch {
      notifications.show({ color: 'red', message: DELETE_ALL_FAILED });
    }
    close();
  };

  const scored = minScore > 0 ? ` scoring ${minScore}+` : '';
  return (
    <AskFirst
      label="Delete all"
      question={`Delete all ${total} ${total === 1 ? one : many}${scored}? They are not found again.`}
      confirmLabel="Delete all"
      size="compact-xs"
      variant="subtle"
      wrap="wrap"
      pending={remove.isPending}
      onConfirm={confirm}
    />
  );
}
