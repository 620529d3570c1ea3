export { AccountsPanel, revealConnectAccount } from './components/accounts-panel';
export { accountKeys, useAccounts } from './hooks/use-accounts';
