export { StatsPage } from './components/stats-page';
export { MonthlyStatisticsPanel } from './components/monthly-statistics-panel';
