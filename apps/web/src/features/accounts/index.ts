export { AccountsPanel } from './components/accounts-panel';
