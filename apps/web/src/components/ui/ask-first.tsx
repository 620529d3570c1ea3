import { useRef, useState } from 'react';
import { Button, Group, Text, type ButtonProps, type MantineColor } from '@mantine/core';

interface TAskFirstProps {
  /** The button that asks. */
  label: string;
  question: string;
  /** The button that answers yes. */
  confirmLabel: string;
  /** The button that answers no: Keep (what a delete would remove) unless told. */
  declineLabel?: string;
  size: 'xs' | 'compact-xs' | 'sm';
  variant: ButtonProps['variant'];
  wrap: 'wrap' | 'nowrap';
  pending: boolean;
  /** Of both acting buttons; red unless the act is the step's main one (Send All DMs). */
  color?: MantineColor;
  /**
   * Runs on the second click, at most once until the promise it returns settles (a double click acts
   * once); `close` withdraws the question (it stays open until called).
   */
  onConfirm: (close: () => void) => Promise<unknown>;
}

/**
 * A button (red unless told) that asks before it acts: a second click on a question beside Keep (or the
 * given answer no). Focus follows the question, to the answer no when it is asked and back to the button
 * when it is withdrawn.
 */
export function AskFirst(props: TAskFirstProps) {
  const [step, setStep] = useState<'idle' | 'confirming' | 'kept'>('idle');
  // Set on the answer's click, before `pending` can show: a double click acts once. Free again once the
  // act has settled (a failure leaves the question open to try again).
  const acting = useRef(false);
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
        {props.declineLabel ?? 'Keep'}
      </Button>
      <Button
        color={color}
        size={props.size}
        loading={props.pending}
        onClick={() => {
          if (acting.current) return;
          acting.current = true;
          void props
            .onConfirm(() => setStep('idle'))
            .finally(() => {
              acting.current = false;
            });
        }}
      >
        {props.confirmLabel}
      </Button>
    </Group>
  );
}
