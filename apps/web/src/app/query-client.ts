import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { PROJECT_NOT_FOUND } from '@threadreach/contract';
import { ApiError } from '../lib/api-error';

/** Answers with a status are final; only network failures and 5xx get one more try. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (failureCount >= 1) return false;
  return !(error instanceof ApiError) || error.status === 0 || error.status >= 500;
}

/** A 404 for a project deleted since the list was read: in another tab, by an admin. */
function isProjectGone(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404 && error.detail === PROJECT_NOT_FOUND;
}

export function createQueryClient(): QueryClient {
  // The projects and the projects used are read again, so the selection moves to a project that exists.
  const onError = (error: unknown) => {
    if (!isProjectGone(error)) return;
    void client.invalidateQueries({ queryKey: ['projects'] });
    void client.invalidateQueries({ queryKey: ['me'] });
  };
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({ onError }),
    defaultOptions: {
      queries: { retry: shouldRetry, refetchOnWindowFocus: false, staleTime: 30_000 },
      mutations: { retry: false },
    },
  });
  return client;
}
