import { useId, useRef } from 'react';
import { Button, VisuallyHidden, type ButtonProps } from '@mantine/core';
import { LazyReasonTooltip, useReasonToggle } from '../../../components/ui/lazy-reason-tooltip';

interface TNewProjectButtonProps extends Pick<ButtonProps, 'variant' | 'size'> {
  label: string;
  /** Why the user may not create a project (limit reached, read-only); null when they may. */
  blockReason: string | null;
  onClick: () => void;
}

/** In a row that runs out of room (the top bar), the label stays whole. */
const NO_SHRINK = { flexShrink: 0 } as const;

/**
 * A create-project button that is disabled, with its reason, before any form is filled in. It stays
 * focusable while disabled so the reason can be read by hovering, focusing or tapping it.
 */
export function NewProjectButton({ label, blockReason, onClick, variant, size }: TNewProjectButtonProps) {
  const reasonId = useId();
  const ref = useRef<HTMLButtonElement>(null);
  const reason = useReasonToggle();
  if (!blockReason) {
    return (
      <Button variant={variant} size={size} onClick={onClick} style={NO_SHRINK}>
        {label}
      </Button>
    );
  }
  return (
    <>
      <Button
        ref={ref}
        variant={variant}
        size={size}
        data-disabled
        aria-disabled
        aria-describedby={reasonId}
        style={NO_SHRINK}
        onClick={(event) => event.preventDefault()}
        {...reason.handlers}
      >
        {label}
      </Button>
      {reason.asked && (
        <LazyReasonTooltip
          target={ref}
          opened={reason.opened}
          label={blockReason}
          position="bottom"
          width={280}
        />
      )}
      <VisuallyHidden id={reasonId}>{blockReason}</VisuallyHidden>
    </>
  );
}
