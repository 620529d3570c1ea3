import { useEffect, useRef, type ReactNode } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';

export interface TConfirmDeleteDialogProps {
  opened: boolean;
  title: string;
  /** What goes, and that it goes for good. */
  question: ReactNode;
  deleting: boolean;
  /** The answer yes: Delete unless told (Regenerate, say, for a text it replaces). */
  confirmLabel?: string;
  onConfirm: () => void;
  onClose: () => void;
}

/** Asks before one thing is deleted: Cancel keeps it, the dialog's Delete deletes it once. */
export function ConfirmDeleteDialog(props: TConfirmDeleteDialogProps) {
  const { opened } = props;
  // Set on the click, before `deleting` can show: a double click deletes once. Free again once it closes.
  const confirmed = useRef(false);
  useEffect(() => {
    if (!opened) confirmed.current = false;
  }, [opened]);
  return (
    <Modal
      opened={opened}
      onClose={props.onClose}
      title={props.title}
      closeButtonProps={{ 'aria-label': 'Close' }}
      centered
    >
      <Stack gap="md">
        <Text size="sm">{props.question}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            Cancel
          </Button>
          <Button
            color="red"
            loading={props.deleting}
            onClick={() => {
              if (!opened || confirmed.current) return;
              confirmed.current = true;
              props.onConfirm();
            }}
          >
            {props.confirmLabel ?? 'Delete'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
