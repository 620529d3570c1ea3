import '@mantine/charts/styles.css';
import { LineChart, type LineChartProps } from '@mantine/charts';
import { Box } from '@mantine/core';
import type { TStatisticsPoint } from '@threadreach/contract';
import { shortLabel } from '../stats-dates';

export interface TStatisticsChartProps {
  series: readonly TStatisticsPoint[];
  granularity: 'day' | 'month';
  /** What the chart shows, for screen readers and tests. */
  label: string;
}

const DMS_AXIS_LABEL = 'DMs sent and replies';
const LEADS_AXIS_LABEL = 'Leads found';

/** Leads run to hundreds a day while DMs stay in single figures: on one scale the DM lines would lie flat. */
const SERIES = [
  { name: 'dms_sent', label: 'DMs sent', color: 'indigo.6' },
  { name: 'replies', label: 'Replies', color: 'teal.6' },
  { name: 'leads', label: LEADS_AXIS_LABEL, color: 'orange.6', yAxisId: 'right' },
];

/** Counts: whole ticks only, so 2 DMs do not read as 0.5, 1, 1.5. */
const countAxis = { allowDecimals: false, width: 48 };

/**
 * Recharts gives its svg any ARIA attribute the chart gets, though its props type lists only `title` and
 * `desc` (a `<title>` would also pop up as the browser's own tooltip over the chart's). The margin leaves
 * room for the names of both axes.
 */
const chartProps = (label: string) =>
  ({
    'aria-label': label,
    margin: { top: 5, right: 20, bottom: 5, left: 20 },
  }) as LineChartProps['lineChartProps'];

/**
 * DMs sent and replies on the left axis, leads found on the right, per day (or per month of a year).
 * Loaded on its own: charts are heavy.
 */
export function StatisticsChart({ series, granularity, label }: TStatisticsChartProps) {
  const data = series.map((p) => ({ ...p, label: shortLabel(p.date, granularity) }));
  return (
    <Box component="figure" m={0} aria-label={label} data-testid="statistics-chart">
      <LineChart
        h={260}
        data={data}
        dataKey="label"
        series={SERIES}
        curveType="monotone"
        withLegend
        withDots={series.length <= 31}
        tickLine="x"
        yAxisLabel={DMS_AXIS_LABEL}
        yAxisProps={countAxis}
        withRightYAxis
        rightYAxisLabel={LEADS_AXIS_LABEL}
        rightYAxisProps={countAxis}
        // Recharts makes the svg a keyboard stop (arrow keys move the tooltip): it needs the chart's name too.
        lineChartProps={chartProps(label)}
      />
    </Box>
  );
}
