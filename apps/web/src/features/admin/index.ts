export { StatsPage } from './components/admin-pages';
export { ModeratorOnly, ACCESS_DENIED_TEXT } from '../auth';
