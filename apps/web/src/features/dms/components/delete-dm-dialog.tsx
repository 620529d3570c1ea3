import type { TDmMessage } from '@threadreach/contract';
import { ConfirmDeleteDialog } from '../../../components/ui/confirm-delete-dialog';

/** Asks before a DM is deleted: its text goes for good. Open while `dm` is set. */
export function DeleteDmDialog(props: {
  dm: TDmMessage | null;
  deleting: boolean;
  onConfirm: (dm: TDmMessage) => void;
  onClose: () => void;
}) {
  const { dm } = props;
  return (
    <ConfirmDeleteDialog
      opened={dm !== null}
      title="Delete DM message"
      question={`Delete the DM to u/${dm?.recipient_username ?? ''}? Its text cannot be brought back.`}
      deleting={props.deleting}
      onConfirm={() => dm && props.onConfirm(dm)}
      onClose={props.onClose}
    />
  );
}
