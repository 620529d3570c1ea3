export { AccountsPanel } from './components/accounts-panel';
export { accountKeys } from './hooks/use-accounts';
