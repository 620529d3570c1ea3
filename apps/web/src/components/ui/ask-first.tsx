import { useState } from 'react';
import { Button, Group, Text, type ButtonProps } from '@mantine/core';

interface TAskFirstProps {
  /** The button that asks. */
  label: string;
  question: string;
  /** The button that answers yes. */
  confirmLabel: string;
  size: 'xs' | 'compact-xs';
  variant: ButtonProps['variant'];
  wrap: 'wrap' | 'nowrap';
  pending: boolean;
  /** Runs on the second click; `close` withdraws the question (it stays open until called). */
  onConfirm: (close: () => void) => void;
}

/**
 * A red button that asks before it acts: a second click on a question beside Keep. Focus follows the
 * question, to Keep when it is asked and back to the button when it is withdrawn.
 */
export function AskFirst(props: TAskFirstProps) {
  const [step, setStep] = useState<'idle' | 'confirming' | 'kept'>('idle');
  if (step !== 'confirming') {
    return (
      <Button
        color="red"
        variant={props.variant}
        size={props.size}
        onClick={() => setStep('confirming')}
        autoFocus={step === 'kept'}
      >
        {props.label}
      </Button>
    );
  }
  return (
    <Group gap="xs" wrap={props.wrap} justify="flex-end">
      <Text size="sm" fw={600}>
        {props.question}
      </Text>
      <Button variant="default" size={props.size} onClick={() => setStep('kept')} autoFocus>
        Keep
      </Button>
      <Button
        color="red"
        size={props.size}
        loading={props.pending}
        onClick={() => props.onConfirm(() => setStep('idle'))}
      >
        {props.confirmLabel}
      </Button>
    </Group>
  );
}
