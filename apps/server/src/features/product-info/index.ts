export { productInfoRoutes } from './product-info.routes';
