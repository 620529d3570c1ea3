import { NativeSelect } from '@mantine/core';
import type { TProject } from '@threadreach/contract';

interface TProjectSelectorProps {
  projects: TProject[];
  value: string | null;
  onChange: (projectId: string) => void;
  /** Admins see every user's projects; the owner's e-mail tells them apart. */
  showOwner?: boolean;
}

export const PROJECT_SELECTOR_PLACEHOLDER = 'Select Project...';

export function ProjectSelector({ projects, value, onChange, showOwner = false }: TProjectSelectorProps) {
  return (
    <NativeSelect
      aria-label="Project"
      value={value ?? ''}
      onChange={(event) => {
        const id = event.currentTarget.value;
        if (id) onChange(id);
      }}
      w={260}
    >
      <option value="" disabled>
        {PROJECT_SELECTOR_PLACEHOLDER}
      </option>
      {projects.map((p) => (
        <option key={p.id} value={p.id}>
          {showOwner && p.owner_email ? `${p.name} (${p.owner_email})` : p.name}
        </option>
      ))}
    </NativeSelect>
  );
}
