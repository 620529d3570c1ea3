export { AccountsPanel } from './components/accounts-panel';
export { accountKeys, useAccounts } from './hooks/use-accounts';
