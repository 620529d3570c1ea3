import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { point, renderAs } from '../statistics.test-support';
import { StatisticsChart } from './statistics-chart';

/** jsdom lays nothing out: give the chart's container a size so the chart draws its svg. */
function sizeCharts() {
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
    const legend = this.classList.contains('recharts-legend-wrapper');
    return DOMRect.fromRect({ width: 640, height: legend ? 24 : 260 });
  });
}

/** The values on the ticks of the drawn chart's left or right axis. */
const ticks = (figure: HTMLElement, side: 'left' | 'right') =>
  [...figure.querySelectorAll(`.recharts-yAxis-tick-labels text[orientation="${side}"]`)].map((tick) =>
    Number(tick.textContent),
  );

describe('statistics chart', () => {
  it('is a keyboard stop only under its own name', async () => {
    sizeCharts();
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

  it('scales leads on a right-hand axis of their own, so a few DMs do not lie flat under hundreds of leads', async () => {
    sizeCharts();
    renderAs(
      ['ADMIN'],
      <StatisticsChart
        series={[
          point('2030-01-07', { dms_sent: 2, replies: 1, leads: 410 }),
          point('2030-01-08', { dms_sent: 3, leads: 380 }),
        ]}
        granularity="day"
        label="DMs sent, replies and leads per day"
      />,
    );
    const figure = screen.getByTestId('statistics-chart');
    await waitFor(() => expect(ticks(figure, 'left').length).toBeGreaterThan(0));
    // The DMs' axis tops out at a few, the leads' at hundreds.
    expect(Math.max(...ticks(figure, 'left'))).toBeLessThan(10);
    expect(Math.max(...ticks(figure, 'right'))).toBeGreaterThanOrEqual(410);
    const names = [...figure.querySelectorAll('.mantine-LineChart-axisLabel')].map((l) => l.textContent);
    expect(names).toEqual(['DMs sent and replies', 'Leads found']);
  });
});
