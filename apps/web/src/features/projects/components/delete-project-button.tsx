import { notifications } from '@mantine/notifications';
import type { TProject } from '@threadreach/contract';
import { AskFirst } from '../../../components/ui/ask-first';
import { errorMessage } from '../../../lib/api-error';
import { deletedText, deleteFailedText } from '../../../lib/delete-texts';
import { useDeleteProject } from '../hooks/use-projects';

/** How the delete texts of spec section 8 name a project. */
export const PROJECT_ITEM = 'Project';
export const DELETE_PROJECT_EXPLAINED =
  'Deleting a project deletes its keywords, subreddits, results, DMs and connected accounts. ' +
  'People its DMs reached stay on your do-not-contact list, so no other project contacts them again.';

interface TDeleteProjectButtonProps {
  project: TProject;
  onDeleted?: () => void;
  /** The reason it failed, to show beside the button; a toast says that it failed in any case. */
  onFailed?: (message: string) => void;
}

/** 'Delete Project', then a second click on a question that names the project. */
export function DeleteProjectButton({ project, onDeleted, onFailed }: TDeleteProjectButtonProps) {
  const remove = useDeleteProject();

  // Awaited rather than mutate()'s callbacks: once the list is read again this button may be gone (its
  // project with it), and the outcome must still be told. A failure leaves the question open.
  const confirm = async () => {
    try {
      await remove.mutateAsync(project.id);
    } catch (failure) {
      notifications.show({ color: 'red', message: deleteFailedText(PROJECT_ITEM) });
      onFailed?.(errorMessage(failure, deleteFailedText(PROJECT_ITEM)));
      return;
    }
    notifications.show({ color: 'green', message: deletedText(PROJECT_ITEM) });
    onDeleted?.();
  };

  return (
    <AskFirst
      label="Delete Project"
      question={`Delete "${project.name}"? This cannot be undone.`}
      confirmLabel="Delete"
      size="xs"
      variant="light"
      wrap="nowrap"
      pending={remove.isPending}
      onConfirm={confirm}
    />
  );
}
