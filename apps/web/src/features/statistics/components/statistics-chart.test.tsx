import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { point, renderAs } from '../statistics.test-support';
import { StatisticsChart } from './statistics-chart';

describe('statistics chart', () => {
  it('is a keyboard stop only under its own name', async () => {
    // jsdom lays nothing out: give the chart's container a size so the chart draws its svg.
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue(
      DOMRect.fromRect({ width: 640, height: 260 }),
    );
    renderAs(
      ['ADMIN'],
      <StatisticsChart
        series={[point('2030-01-07', { dms_sent: 2 }), point('2030-01-08', { replies: 1 })]}
        granularity="day"
        label="DMs sent, replies and leads per day"
      />,
    );
    const figure = screen.getByTestId('statistics-chart');
    await waitFor(() => expect(figure.querySelector('svg.recharts-surface')).not.toBeNull());
    // Every tab stop in the chart (recharts' keyboard layer on its svg) says what it is.
    const stops = [...figure.querySelectorAll<HTMLElement | SVGElement>('[tabindex]')].filter(
      (el) => el.tabIndex >= 0,
    );
    expect(stops.length).toBeGreaterThan(0);
    for (const stop of stops) {
      expect(stop.getAttribute('aria-label')).toBe('DMs sent, replies and leads per day');
    }
    expect(screen.getByRole('application', { name: 'DMs sent, replies and leads per day' })).toBeTruthy();
  });
});
