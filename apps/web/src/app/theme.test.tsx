import { DEFAULT_THEME, Loader, MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { contrast, cssVariablesResolver, readableOn, theme } from './theme';

const AA = 4.5;

describe('readable colours', () => {
  it('keeps a colour that already reads at AA and darkens one that does not, just enough', () => {
    expect(readableOn('#212529', '#ffffff')).toBe('#212529');
    const dimmed = readableOn(DEFAULT_THEME.colors.gray[6], '#ffffff');
    expect(contrast(dimmed, '#ffffff')).toBeGreaterThanOrEqual(AA);
    expect(contrast(dimmed, '#ffffff')).toBeLessThan(AA + 1);
  });

  it('gives every text, light and outline colour of the palette AA contrast on its background', () => {
    const { light } = cssVariablesResolver(theme as Parameters<typeof cssVariablesResolver>[0]);
    const { colors } = DEFAULT_THEME;
    for (const [name, shades] of Object.entries(colors)) {
      expect(contrast(light[`--mantine-color-${name}-text`]!, colors.gray[1]), name).toBeGreaterThanOrEqual(
        AA,
      );
      expect(contrast(light[`--mantine-color-${name}-light-color`]!, shades[2]), name).toBeGreaterThanOrEqual(
        AA,
      );
      expect(
        contrast(light[`--mantine-color-${name}-outline`]!, colors.gray[1]),
        name,
      ).toBeGreaterThanOrEqual(AA);
    }
    expect(contrast(light['--mantine-color-dimmed']!, colors.gray[1])).toBeGreaterThanOrEqual(AA);
  });
});

describe('spinners', () => {
  it('names a spinner by its label as a progress bar, and hides one that stands beside its own text', () => {
    render(
      <MantineProvider theme={theme}>
        <Loader aria-label="Loading statistics" />
        <Loader aria-hidden />
      </MantineProvider>,
    );
    expect(screen.getAllByRole('progressbar').map((el) => el.getAttribute('aria-label'))).toEqual([
      'Loading statistics',
    ]);
  });
});
