import { useEffect, useRef } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { TDmMessage } from '@threadreach/contract';

/** Asks before a DM is deleted: its text goes for good. Open while `dm` is set. */
export function DeleteDmDialog(props: {
  dm: TDmMessage | null;
  deleting: boolean;
  onConfirm: (dm: TDmMessage) => void;
  onClose: () => void;
}) {
  const { dm } = props;
  // Set on the click, before `deleting` can show: a double click deletes once. Free again once it closes.
  const confirmed = useRef(false);
  useEffect(() => {
    if (!dm) confirmed.current = false;
  }, [dm]);
  return (
    <Modal
      opened={dm !== null}
      onClose={props.onClose}
      title="Delete DM message"
      closeButtonProps={{ 'aria-label': 'Close' }}
      centered
    >
      <Stack gap="md">
        <Text size="sm">Delete the DM to u/{dm?.recipient_username}? Its text cannot be brought back.</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            Cancel
          </Button>
          <Button
            color="red"
            loading={props.deleting}
            onClick={() => {
              if (!dm || confirmed.current) return;
              confirmed.current = true;
              props.onConfirm(dm);
            }}
          >
            Delete
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
