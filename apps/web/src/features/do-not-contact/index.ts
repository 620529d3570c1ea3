export { DoNotContactButton, DoNotContactModal } from './components/do-not-contact-modal';
