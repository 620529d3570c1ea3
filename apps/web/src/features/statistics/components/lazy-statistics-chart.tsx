import { lazy, Suspense } from 'react';
import { Center, Loader } from '@mantine/core';
import type { TStatisticsChartProps } from './statistics-chart';

const StatisticsChart = lazy(() =>
  import('./statistics-chart').then((m) => ({ default: m.StatisticsChart })),
);

/** The chart, fetched when first shown so the pages around it load without the charting library. */
export function LazyStatisticsChart(props: TStatisticsChartProps) {
  return (
    <Suspense
      fallback={
        <Center h={260}>
          <Loader size="sm" aria-label="Loading chart" />
        </Center>
      }
    >
      <StatisticsChart {...props} />
    </Suspense>
  );
}
