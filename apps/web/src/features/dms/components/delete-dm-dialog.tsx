import { useState } from 'react';
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
  // The name stays while the dialog fades out after `dm` is cleared, instead of reading "u/".
  const [name, setName] = useState(dm?.recipient_username ?? '');
  if (dm && dm.recipient_username !== name) setName(dm.recipient_username);
  return (
    <ConfirmDeleteDialog
      opened={dm !== null}
      title="Delete DM message"
      question={`Delete the DM to u/${name}? Its text cannot be brought back.`}
      deleting={props.deleting}
      onConfirm={() => dm && props.onConfirm(dm)}
      onClose={props.onClose}
    />
  );
}
