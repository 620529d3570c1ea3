import type { TProject } from '@threadreach/contract';

/** A project of 'user-1' as the API lists it. */
export function buildProject(id: string, name: string, extra: Partial<TProject> = {}): TProject {
  return {
    id,
    user_id: 'user-1',
    name,
    description: null,
    without_keywords: false,
    created_at: '2030-01-01T00:00:00Z',
    updated_at: '2030-01-01T00:00:00Z',
    ...extra,
  };
}
