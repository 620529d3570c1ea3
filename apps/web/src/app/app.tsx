import { BrowserRouter } from 'react-router';
import { SupportChat } from '../features/support-chat';
import { AppEffects } from './app-effects';
import { AppProviders } from './app-providers';
import { AppRoutes } from './app-routes';

export function App() {
  return (
    <AppProviders>
      <BrowserRouter>
        <AppEffects />
        <SupportChat />
        <AppRoutes />
      </BrowserRouter>
    </AppProviders>
  );
}
