import type { TCredentialType } from '@threadreach/contract';
import type { TCredentialListParams } from './api/credentials.api';
import { CREDENTIALS_PAGE_SIZE } from './hooks/use-credentials';

export type TCredentialTypeFilter = 'all' | TCredentialType;

/** What the credentials tab shows: type filter, disabled ones or not, and the page (from 1). */
export interface TCredentialFilters {
  type: TCredentialTypeFilter;
  includeDisabled: boolean;
  page: number;
}

export const DEFAULT_CREDENTIAL_FILTERS: TCredentialFilters = {
  type: 'all',
  includeDisabled: false,
  page: 1,
};

export const TYPE_FILTER_OPTIONS: { value: TCredentialTypeFilter; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'search', label: 'Search Only' },
  { value: 'send', label: 'Send Only' },
];

/** The list call's parameters; the type is left out for All. */
export function listParamsOf(filters: TCredentialFilters): TCredentialListParams {
  return {
    credentialType: filters.type === 'all' ? undefined : filters.type,
    includeDisabled: filters.includeDisabled,
    limit: CREDENTIALS_PAGE_SIZE,
    offset: (filters.page - 1) * CREDENTIALS_PAGE_SIZE,
  };
}
