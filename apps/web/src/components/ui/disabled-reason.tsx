import type { ReactNode } from 'react';
import { Tooltip } from '@mantine/core';

/** A disabled control that says why when hovered (a disabled button takes no pointer events itself). */
export function DisabledReason({ why, children }: { why: string | null; children: ReactNode }) {
  if (!why) return children;
  return (
    <Tooltip label={why}>
      <span>{children}</span>
    </Tooltip>
  );
}
