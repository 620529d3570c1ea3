export { HistoryList } from './components/history-list';
export { CampaignStatistics } from './components/campaign-statistics';
export { historyKeys } from './hooks/use-history';
