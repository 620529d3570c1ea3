import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** WCAG 2.1 A and AA, as axe checks them: names, labels, roles, contrast. */
const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * Fails with every rule broken on the page once it is still, and where. Transitions that end (a dialog fading
 * in, say) are waited for: mid-way, its text sits on a blend of backgrounds that is never shown for long.
 * Endless ones (spinners) are not.
 */
export async function expectAccessible(page: Page, what: string) {
  await page.evaluate(`Promise.all(
    document
      .getAnimations()
      .filter((a) => a.effect?.getComputedTiming().endTime !== Infinity)
      .map((a) => a.finished.catch(() => undefined)),
  )`);
  const { violations } = await new AxeBuilder({ page }).withTags(WCAG_AA).analyze();
  const found = violations.flatMap((v) =>
    v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}: ${n.failureSummary?.replace(/\s+/g, ' ')}`),
  );
  expect(found, `accessibility of ${what}`).toEqual([]);
}
