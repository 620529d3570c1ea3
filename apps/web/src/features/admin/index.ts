export { LogsPage, StatsPage, CredentialsPage } from './components/admin-pages';
export { ModeratorOnly, ACCESS_DENIED_TEXT } from './components/moderator-only';
