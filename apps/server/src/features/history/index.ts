export { historyRoutes } from './history.routes';
