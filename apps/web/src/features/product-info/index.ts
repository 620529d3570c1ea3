export { ProductInfoForm, validateProductInfo } from './components/product-info-form';
