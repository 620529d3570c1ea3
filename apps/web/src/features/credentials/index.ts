export { CredentialsPage } from './components/credentials-page';
