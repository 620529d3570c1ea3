import type { RefObject } from 'react';
import { Tooltip, type TooltipProps } from '@mantine/core';

export interface TReasonTooltipProps {
  target: RefObject<HTMLElement | null>;
  opened: boolean;
  label: string;
  position?: TooltipProps['position'];
  /** A width to wrap a long reason in. */
  width?: number;
}

/** Why a control is disabled, beside it; loaded the first time it is asked for (lazy-reason-tooltip.tsx). */
export default function ReasonTooltip({
  target,
  opened,
  label,
  position = 'top',
  width,
}: TReasonTooltipProps) {
  return (
    <Tooltip
      target={target}
      opened={opened}
      label={label}
      position={position}
      multiline={width !== undefined}
      w={width}
      withArrow
      // Shown only while its control is hovered or focused: nothing to hide it for when scrolled away.
      hideDetached={false}
    />
  );
}
