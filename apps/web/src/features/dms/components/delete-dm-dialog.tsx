import { useState } from 'react';
import type { TDmMessage } from '@threadreach/contract';
import { ConfirmDeleteDialog } from '../../../components/ui/confirm-delete-dialog';

/** The DM's recipient, kept while its dialog fades out after `dm` is cleared (instead of reading "u/"). */
function useRecipientName(dm: TDmMessage | null): string {
  const [name, setName] = useState(dm?.recipient_username ?? '');
  if (dm && dm.recipient_username !== name) setName(dm.recipient_username);
  return name;
}

/** Asks before a DM is deleted: its text goes for good. Open while `dm` is set. */
export function DeleteDmDialog(props: {
  dm: TDmMessage | null;
  deleting: boolean;
  onConfirm: (dm: TDmMessage) => void;
  onClose: () => void;
}) {
  const { dm } = props;
  const name = useRecipientName(dm);
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

/** Asks before a DM whose text the customer edited and saved is regenerated: the edit goes for good. */
export function RegenerateDmDialog(props: {
  dm: TDmMessage | null;
  regenerating: boolean;
  onConfirm: (dm: TDmMessage) => void;
  onClose: () => void;
}) {
  const { dm } = props;
  const name = useRecipientName(dm);
  return (
    <ConfirmDeleteDialog
      opened={dm !== null}
      title="Regenerate DM message"
      question={`Replace your edited DM to u/${name} with a new draft? Your edit cannot be brought back.`}
      confirmLabel="Regenerate"
      deleting={props.regenerating}
      onConfirm={() => dm && props.onConfirm(dm)}
      onClose={props.onClose}
    />
  );
}
