import { useState } from 'react';
import { Button, Group, Text, type ButtonProps, type MantineColor } from '@mantine/core';

interface TAskFirstProps {
  /** The button that asks. */
  label: string;
  question: string;
  /** The button that answers yes. */
  confirmLabel: string;
  size: 'xs' | 'compact-xs' | 'sm';
  variant: ButtonProps['variant'];
  wrap: 'wrap' | 'nowrap';
  pending: boolean;
  /** Of both acting buttons; red unless the act is the step's main one (Send All DMs). */
  color?: MantineColor;
  /** Runs on the second click; `close` withdraws the question (it stays open until called). */
  onConfirm: (close: () => void) => void;
}

/**
 * A button (red unless told) that asks before it acts: a second click on a question beside Keep. Focus follows the
 * question, to Keep when it is asked and back to the button when it is withdrawn.
 */
export function AskFirst(props: TAskFirstProps) {
  const [step, setStep] = useState<'idle' | 'confirming' | 'kept'>('idle');
  const color = props.color ?? 'red';
  if (step !== 'confirming') {
    return (
      <Button
        color={color}
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
        color={color}
        size={props.size}
        loading={props.pending}
        onClick={() => props.onConfirm(() => setStep('idle'))}
      >
        {props.confirmLabel}
      </Button>
    </Group>
  );
}
