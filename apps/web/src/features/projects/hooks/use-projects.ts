import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  DEFAULT_PROJECT_NAME,
  type TCreateProjectRequest,
  type TProject,
  type TUpdateProjectRequest,
} from '@threadreach/contract';
import { useState } from 'react';
import { localPrefs } from '../../../lib/local-prefs';
import { createProject, deleteProject, listProjects, updateProject } from '../api/projects.api';

/** While the user has no project, the list is fetched again this often (spec section 9). */
export const NO_PROJECT_RETRY_MS = 10_000;

export const projectKeys = {
  all: ['projects'] as const,
};

/** The user's projects; while there are none, the workspace asks again now and then (spec section 9). */
export function useProjects(enabled = true, { pollWhileEmpty = true } = {}) {
  return useQuery({
    queryKey: projectKeys.all,
    queryFn: () => listProjects(),
    enabled,
    refetchInterval: (query) =>
      pollWhileEmpty && !query.state.data?.items.length ? NO_PROJECT_RETRY_MS : false,
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

export function useUpdateProject(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TUpdateProjectRequest) => updateProject(projectId, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: projectKeys.all }),
  });
}

/** Deletes a project; the list and the projects used are read again (the selection then moves on). */
export function useDeleteProject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (projectId: string) => deleteProject(projectId),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: projectKeys.all });
      await queryClient.invalidateQueries({ queryKey: ['me'] });
    },
  });
}

/**
 * The project to show: the saved one, then 'Default Project', then the first (spec section 4), looking
 * only at the user's own projects after the saved one. Admins list everyone's projects; they open on
 * their own, and on none (the first-project prompt) until they have one.
 */
export function pickProject(
  projects: TProject[] | undefined,
  savedId: string | null,
  ownerId: string | null,
): TProject | null {
  if (!projects || projects.length === 0) return null;
  const saved = projects.find((p) => p.id === savedId);
  if (saved) return saved;
  const own = ownerId === null ? projects : projects.filter((p) => p.user_id === ownerId);
  return own.find((p) => p.name === DEFAULT_PROJECT_NAME) ?? own[0] ?? null;
}

/** The selected project, kept in local storage; `ownerId` is the signed-in user's id. */
export function useSelectedProject(projects: TProject[] | undefined, ownerId: string | null) {
  const [savedId, setSavedId] = useState<string | null>(() => localPrefs.getSelectedProjectId());
  const selected = pickProject(projects, savedId, ownerId);
  const select = (id: string | null) => {
    localPrefs.setSelectedProjectId(id);
    setSavedId(id);
  };
  return { selected, select };
}
