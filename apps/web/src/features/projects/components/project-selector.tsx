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

function optionLabel(project: TProject, showOwner: boolean): string {
  return showOwner && project.owner_email ? `${project.name} (${project.owner_email})` : project.name;
}

export function ProjectSelector({ projects, value, onChange, showOwner = false }: TProjectSelectorProps) {
  const current = projects.find((p) => p.id === value);
  return (
    <NativeSelect
      aria-label="Project"
      value={value ?? ''}
      onChange={(event) => {
        const id = event.currentTarget.value;
        if (id) onChange(id);
      }}
      // 260px where there is room; in a row that runs out of it, it gives way first, down to 140px.
      maw={260}
      miw={140}
      style={{ flex: '1 1 140px' }}
      // A long name ends in an ellipsis; hovering shows it whole.
      title={current ? optionLabel(current, showOwner) : PROJECT_SELECTOR_PLACEHOLDER}
      styles={{ input: { textOverflow: 'ellipsis', overflow: 'hidden', whiteSpace: 'nowrap' } }}
    >
      <option value="" disabled>
        {PROJECT_SELECTOR_PLACEHOLDER}
      </option>
      {projects.map((p) => (
        <option key={p.id} value={p.id} title={optionLabel(p, showOwner)}>
          {optionLabel(p, showOwner)}
        </option>
      ))}
    </NativeSelect>
  );
}
