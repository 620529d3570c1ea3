import type { ReactNode } from 'react';
import { Anchor } from '@mantine/core';
import { focusHeading } from '../../lib/focus-heading';
import classes from './skip-link.module.css';

/** Where a list's skip link takes the keyboard: the id of the next section, and what the link says. */
export interface TSkipTo {
  id: string;
  label: string;
}

/**
 * Takes the keyboard (and the view) to the element with this id: to its first heading, which is read out
 * and from which Tab goes on. Not the browser's jump to `#id`: a new address would be a history entry,
 * which the workspace reads.
 */
export function goToSection(id: string): void {
  const target = document.getElementById(id);
  if (!target) return;
  const heading = target.querySelector<HTMLElement>('h1, h2, h3, h4, h5, h6');
  focusHeading(heading ?? target);
}

/**
 * A link before a long list, shown only while it has focus, that takes the keyboard past the list to the
 * element `to` names: to its first heading, which is read out and from which Tab goes on.
 */
export function SkipLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Anchor
      href={`#${to}`}
      size="sm"
      className={classes.skip}
      onClick={(event) => {
        event.preventDefault();
        goToSection(to);
      }}
    >
      {children}
    </Anchor>
  );
}
