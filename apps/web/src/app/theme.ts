import { DEFAULT_THEME, createTheme, darken, luminance, type CSSVariablesResolver } from '@mantine/core';

/** WCAG 2.1 AA: normal-sized text against its background. */
const AA_CONTRAST = 4.5;
/** The luminance above which black text reads better than white: where white's contrast drops under AA. */
const WHITE_TEXT_LUMINANCE_LIMIT = 1.05 / AA_CONTRAST - 0.05;

export function contrast(a: string, b: string): number {
  const [x, y] = [luminance(a), luminance(b)];
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}

/** The colour itself when text in it reads at AA on the background, else darkened just enough. */
export function readableOn(color: string, background: string): string {
  let readable = color;
  for (let amount = 0.05; contrast(readable, background) < AA_CONTRAST && amount < 1; amount += 0.05) {
    readable = darken(color, amount);
  }
  return readable;
}

const { colors } = DEFAULT_THEME;
/** Striped rows and subtle panels: text must read on these as well as on white. */
const PANEL = colors.gray[1];

/**
 * Mantine's default palette sets coloured text (`c="red"`), light badges and buttons (`-light-color`
 * on shade 1), outlines, dimmed text and errors in shades that miss AA contrast on white. The same
 * hues, darkened where they do not reach it; dark mode is not offered, so only the light scheme is
 * touched.
 */
const readableLight: Record<string, string> = {
  '--mantine-color-dimmed': readableOn(colors.gray[6], PANEL),
  '--mantine-color-error': readableOn(colors.red[7], PANEL),
};
for (const [name, shades] of Object.entries(colors)) {
  readableLight[`--mantine-color-${name}-text`] = readableOn(shades[7], PANEL);
  // On shade 2 rather than 1: a light button stays readable under the pointer (its hover colour).
  readableLight[`--mantine-color-${name}-light-color`] = readableOn(shades[9], shades[2]);
  readableLight[`--mantine-color-${name}-outline`] = readableOn(shades[7], PANEL);
}

export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: readableLight,
  dark: {},
});

export const theme = createTheme({
  primaryColor: 'indigo',
  // Shade 7: white on the primary colour, and links in it on white, read at AA (shade 6 is 4.3:1).
  primaryShade: { light: 7, dark: 8 },
  // Filled buttons and badges get black text where white would not reach AA (orange, green, yellow…).
  autoContrast: true,
  luminanceThreshold: WHITE_TEXT_LUMINANCE_LIMIT,
  components: {
    // The arrows and close buttons have no text: screen readers need their names. (Plain objects, not `Pagination.extend`:
    // importing the components here would move them from the lazy parts into every page's first load.)
    Pagination: {
      defaultProps: {
        getControlProps: (control: 'first' | 'previous' | 'last' | 'next') => ({
          'aria-label': {
            first: 'First page',
            previous: 'Previous page',
            next: 'Next page',
            last: 'Last page',
          }[control],
        }),
        getItemProps: (page: number) => ({ 'aria-label': `Page ${page}` }),
      },
    },
    Notification: {
      defaultProps: { closeButtonProps: { 'aria-label': 'Close notification' } },
    },
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close dialog' } } },
    // A spinner is a span: its name ("Loading statistics") counts only with a role. One that stands beside
    // its own text is hidden from screen readers instead.
    Loader: { defaultProps: { role: 'progressbar' } },
  },
});
