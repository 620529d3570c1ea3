/**
 * Focuses a heading that is no tab stop of its own (`tabindex="-1"`): screen readers read it out, and the
 * next Tab goes on from there.
 */
export function focusHeading(heading: HTMLElement): void {
  if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1;
  heading.focus();
}
