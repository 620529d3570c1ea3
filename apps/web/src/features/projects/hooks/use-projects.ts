import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { DEFAULT_PROJECT_NAME, type TCreateProjectRequest, type TProject } from '@threadreach/contract';
import { useState } from 'react';
import { localPrefs } from '../../../lib/local-prefs';
import { createProject, listProjects } from '../api/projects.api';

/** While the user has no project, the list is fetched again this often (spec section 9). */
export const NO_PROJECT_RETRY_MS = 10_000;

export const projectKeys = {
  all: ['projects'] as const,
};

export function useProjects(enabled = true) {
  return useQuery({
    queryKey: projectKeys.all,
    queryFn: () => listProjects(),
    enabled,
    refetchInterval: (query) => (query.state.data?.items.length ? false : NO_PROJECT_RETRY_MS),
  });
}

export function useCreateProject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TCreateProjectRequest) => createProject(body),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: projectKeys.all });
      await queryClient.invalidateQueries({ queryKey: ['me'] });
    },
  });
}

/** The project to show: the saved one, then 'Default Project', then the first. */
export function pickProject(projects: TProject[] | undefined, savedId: string | null): TProject | null {
  if (!projects || projects.length === 0) return null;
  return (
    projects.find((p) => p.id === savedId) ??
    projects.find((p) => p.name === DEFAULT_PROJECT_NAME) ??
    projects[0] ??
    null
  );
}

/** The selected project, kept in local storage. */
export function useSelectedProject(projects: TProject[] | undefined) {
  const [savedId, setSavedId] = useState<string | null>(() => localPrefs.getSelectedProjectId());
  const selected = pickProject(projects, savedId);
  const select = (id: string | null) => {
    localPrefs.setSelectedProjectId(id);
    setSavedId(id);
  };
  return { selected, select };
}
