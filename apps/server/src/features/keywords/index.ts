export { keywordsRoutes } from './keywords.routes';
export { generateKeywords } from './keywords.service';
