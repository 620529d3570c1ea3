import { useState } from 'react';
import { Button, Group, Modal, Stack, Text, type ButtonProps } from '@mantine/core';
import { useRestartLearning } from '../hooks/use-agent';

/**
 * Restart Learning, after a confirmation: the learned patterns are cleared, the agent stops (the DMs it
 * queued are taken back) and learns again from saved edits. In step 4, and beside Stop Agent on the
 * overlay while the agent runs.
 */
export function RestartLearningButton({
  projectId,
  readOnly,
  disabled = false,
  variant = 'default',
}: {
  projectId: string;
  readOnly: boolean;
  disabled?: boolean;
  variant?: ButtonProps['variant'];
}) {
  const restart = useRestartLearning(projectId);
  const [confirming, setConfirming] = useState(false);
  return (
    <>
      <Button variant={variant} onClick={() => setConfirming(true)} disabled={readOnly || disabled}>
        Restart Learning
      </Button>
      <Modal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title="Restart learning?"
        closeButtonProps={{ 'aria-label': 'Close' }}
        centered
      >
        <Stack gap="sm">
          <Text size="sm">
            The learned patterns are cleared and the agent stops until learning is completed again. Queued DMs
            of the agent are not sent.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
            <Button
              color="red"
              loading={restart.isPending}
              onClick={() => restart.mutate(undefined, { onSettled: () => setConfirming(false) })}
            >
              Restart Learning
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
