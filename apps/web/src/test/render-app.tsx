import { useEffect } from 'react';
import { render } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { MemoryRouter, useLocation, useNavigate, type NavigateFunction } from 'react-router';
import { AppEffects } from '../app/app-effects';
import { AppProviders } from '../app/app-providers';
import { AppRoutes } from '../app/app-routes';

let currentLocation = '';
let navigateInApp: NavigateFunction | null = null;

function LocationProbe() {
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    navigateInApp = navigate;
  }, [navigate]);
  useEffect(() => {
    currentLocation = `${pathname}${search}`;
  }, [pathname, search]);
  return null;
}

/** The router's current path and query in the last rendered app. */
export function testLocation(): string {
  return currentLocation;
}

/** The browser's Back button in the last rendered app. */
export async function testGoBack(): Promise<void> {
  await navigateInApp?.(-1);
}

export function testQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
}

/**
 * Renders the whole app at `path` with a fresh query cache: by default one that keeps nothing fresh, or
 * the one given (the app's own, to see what its 30 s of freshness keeps on screen).
 */
export function renderApp(path: string, queryClient: QueryClient = testQueryClient()) {
  return render(
    <AppProviders queryClient={queryClient}>
      <MemoryRouter initialEntries={[path]}>
        <AppEffects />
        <LocationProbe />
        <AppRoutes />
      </MemoryRouter>
    </AppProviders>,
  );
}
