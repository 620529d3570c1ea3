import { lazy, Suspense, useState, type KeyboardEvent } from 'react';
import type { TReasonTooltipProps } from './reason-tooltip';

// Mantine's Tooltip brings Floating UI (about 20 KiB gzipped) that no first page needs: it loads the first
// time a reason is asked for.
const ReasonTooltip = lazy(() => import('./reason-tooltip'));

/**
 * Whether a reason is shown beside an element: `handlers` go on it (hover, focus and touch show it; leaving,
 * blur and Escape hide it), and `asked` turns true the first time, when the tooltip may be loaded.
 */
export function useReasonToggle() {
  const [opened, setOpened] = useState(false);
  const [asked, setAsked] = useState(false);
  const show = () => {
    setAsked(true);
    setOpened(true);
  };
  const hide = () => setOpened(false);
  return {
    opened,
    asked,
    handlers: {
      onMouseEnter: show,
      onMouseLeave: hide,
      onFocus: show,
      onBlur: hide,
      onTouchStart: show,
      onKeyDown: (event: KeyboardEvent) => {
        if (event.key === 'Escape') hide();
      },
    },
  };
}

/** The reason's tooltip, loaded when first rendered. */
export function LazyReasonTooltip(props: TReasonTooltipProps) {
  return (
    <Suspense fallback={null}>
      <ReasonTooltip {...props} />
    </Suspense>
  );
}
