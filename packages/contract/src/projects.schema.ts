import { z } from 'zod';
import { ZIsoDateTime, ZPage, ZPageQuery, ZText } from './common.schema';

export const DEFAULT_PROJECT_NAME = 'Default Project';
export const PROJECT_NAME_MAX = 100;
export const PROJECT_DESCRIPTION_MAX = 1000;
/** The 404 detail of a project that does not exist (or is not the caller's): also one deleted meanwhile. */
export const PROJECT_NOT_FOUND = 'Project not found';

export const ZProject = z
  .object({
    id: z.string(),
    user_id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    without_keywords: z.boolean(),
    owner_email: z.string().optional(),
    created_at: ZIsoDateTime,
    updated_at: ZIsoDateTime,
  })
  .meta({ id: 'Project' });
export type TProject = z.infer<typeof ZProject>;

export const ZProjectList = ZPage(ZProject);
export type TProjectList = z.infer<typeof ZProjectList>;
export const ZListProjectsQuery = ZPageQuery;

const ZProjectName = ZText({ error: 'Project name is required' })
  .trim()
  .min(1, { error: 'Project name is required' })
  .max(PROJECT_NAME_MAX, { error: `Project name must be at most ${PROJECT_NAME_MAX} characters` });
const ZProjectDescription = ZText()
  .trim()
  .max(PROJECT_DESCRIPTION_MAX, {
    error: `Description must be at most ${PROJECT_DESCRIPTION_MAX} characters`,
  });

export const ZCreateProjectRequest = z.object({
  name: ZProjectName,
  description: ZProjectDescription.nullish(),
});
export type TCreateProjectRequest = z.infer<typeof ZCreateProjectRequest>;

export const ZUpdateProjectRequest = z
  .object({
    name: ZProjectName.optional(),
    description: ZProjectDescription.nullish(),
    without_keywords: z.boolean().optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), {
    error: 'Nothing to update: send name, description or without_keywords',
  });
export type TUpdateProjectRequest = z.infer<typeof ZUpdateProjectRequest>;

export const ZProjectParams = z.object({ projectId: z.uuid({ error: 'Project not found' }) });
