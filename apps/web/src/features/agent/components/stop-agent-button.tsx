import { Button, type ButtonProps } from '@mantine/core';
import { useToggleAgentMode } from '../hooks/use-agent';

/** Stop Agent: back to assistant mode, every send the agent queued taken back (the customer's own stay). */
export function StopAgentButton({
  projectId,
  readOnly,
  variant,
}: {
  projectId: string;
  readOnly: boolean;
  variant?: ButtonProps['variant'];
}) {
  const toggle = useToggleAgentMode(projectId);
  return (
    <Button
      color="red"
      variant={variant}
      onClick={() => toggle.mutate('assistant')}
      loading={toggle.isPending}
      disabled={readOnly}
    >
      Stop Agent
    </Button>
  );
}
