import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { renderSignedIn, buildEfficiencyStats } from '../credentials.test-support';
import { EfficiencyMetrics, ErrorRateBadge, ProxyHealthBadge, SuccessRateBar } from './credential-metrics';

describe('efficiency metrics bands', () => {
  it.each([
    [100, 'green'],
    [95, 'green'],
    [94.9, 'yellow'],
    [85, 'yellow'],
    [84.9, 'orange'],
    [70, 'orange'],
    [69.9, 'red'],
    [0, 'red'],
  ])('success rate %s draws a %s bar', (percent, color) => {
    renderSignedIn(<SuccessRateBar percent={percent} requests={10} />);
    const bar = screen.getByRole('progressbar', { name: 'Success rate' });
    expect(bar.getAttribute('aria-valuenow')).toBe(String(percent));
    expect(bar.closest('[data-color]')?.getAttribute('data-color')).toBe(color);
    expect(screen.getByText(`${percent.toFixed(1)}%`)).toBeTruthy();
  });

  it.each([
    [0, 'low', 'green'],
    [4.9, 'low', 'green'],
    [5, 'medium', 'yellow'],
    [14.9, 'medium', 'yellow'],
    [15, 'high', 'orange'],
    [29.9, 'high', 'orange'],
    [30, 'critical', 'red'],
  ])('error rate %s shows a %s badge', (percent, level) => {
    renderSignedIn(<ErrorRateBadge percent={percent} requests={10} />);
    const badge = screen.getByText(`${percent.toFixed(1)}% ${level}`);
    expect(badge.closest('[data-level]')?.getAttribute('data-level')).toBe(level);
  });

  it("shows '—' for both rates while there are no requests, not 100.0% and 0.0%", () => {
    renderSignedIn(
      <EfficiencyMetrics
        stats={buildEfficiencyStats({ total_requests: 0, success_rate_percent: 100, error_rate_percent: 0 })}
      />,
    );
    expect(screen.getByTestId('success-rate').textContent).toBe('—');
    const bar = screen.getByRole('progressbar', { name: 'Success rate' });
    expect(bar.getAttribute('aria-valuenow')).toBe('0');
    expect(bar.closest('[data-color]')?.getAttribute('data-color')).toBe('gray');
    expect(screen.getByText('—', { selector: '[data-level="none"] *' })).toBeTruthy();
    expect(screen.queryByText(/100\.0%|0\.0%/)).toBeNull();
  });

  it('shows the rates once there is a request', () => {
    renderSignedIn(
      <EfficiencyMetrics
        stats={buildEfficiencyStats({ total_requests: 1, success_rate_percent: 100, error_rate_percent: 0 })}
      />,
    );
    expect(screen.getByTestId('success-rate').textContent).toBe('100.0%');
    expect(screen.getByText('0.0% low')).toBeTruthy();
  });

  it.each([
    ['healthy', 'healthy', 'green'],
    ['degraded', 'degraded', 'yellow'],
    ['failed', 'failed', 'red'],
    [null, 'Unknown', 'gray'],
  ] as const)('proxy health %s shows %s in %s', (status, label, color) => {
    renderSignedIn(<ProxyHealthBadge status={status} />);
    expect(screen.getByText(label).closest('[data-color]')?.getAttribute('data-color')).toBe(color);
  });

  it('shows the six counters', () => {
    renderSignedIn(
      <EfficiencyMetrics
        stats={buildEfficiencyStats({
          total_requests: 120,
          success_count: 110,
          failure_count: 10,
          active_clients: 2,
          total_clients_created: 7,
          total_proxy_requests: 95,
        })}
      />,
    );
    const counter = (label: string) =>
      within(screen.getByRole('group', { name: label })).getAllByText(/\d/)[0];
    expect(counter('Total Requests')?.textContent).toBe('120');
    expect(counter('Successes')?.textContent).toBe('110');
    expect(counter('Failures')?.textContent).toBe('10');
    expect(counter('Active Clients')?.textContent).toBe('2');
    expect(counter('Total Clients Created')?.textContent).toBe('7');
    expect(counter('Proxy Requests')?.textContent).toBe('95');
  });
});
