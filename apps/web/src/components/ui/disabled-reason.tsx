import { useRef, type ReactNode } from 'react';
import { LazyReasonTooltip, useReasonToggle } from './lazy-reason-tooltip';

/** A disabled control that says why when hovered (a disabled button takes no pointer events itself). */
export function DisabledReason({ why, children }: { why: string | null; children: ReactNode }) {
  const ref = useRef<HTMLSpanElement>(null);
  const reason = useReasonToggle();
  if (!why) return children;
  return (
    <>
      <span ref={ref} {...reason.handlers}>
        {children}
      </span>
      {reason.asked && <LazyReasonTooltip target={ref} opened={reason.opened} label={why} />}
    </>
  );
}
