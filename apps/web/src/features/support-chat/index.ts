export { SupportChat } from './support-chat';
