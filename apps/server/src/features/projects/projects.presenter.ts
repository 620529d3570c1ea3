import type { TProject } from '@threadreach/contract';
import type { ProjectRow } from './projects.table';

/** The API shape of a project; the owner's e-mail is shown only to admins. */
export function presentProject(row: ProjectRow & { ownerEmail?: string }, showOwner: boolean): TProject {
  return {
    id: row.id,
    user_id: row.userId,
    name: row.name,
    description: row.description,
    without_keywords: row.withoutKeywords,
    ...(showOwner && row.ownerEmail ? { owner_email: row.ownerEmail } : {}),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
