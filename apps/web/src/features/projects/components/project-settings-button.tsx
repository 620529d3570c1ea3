import { lazy, Suspense, useState } from 'react';
import { Button } from '@mantine/core';
import type { TProject } from '@threadreach/contract';

const ProjectSettingsModal = lazy(() =>
  import('./project-settings-modal').then((m) => ({ default: m.ProjectSettingsModal })),
);

/** 'Project settings': renaming and deleting the project, in a dialog loaded the first time it opens. */
export function ProjectSettingsButton({ project }: { project: TProject }) {
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button variant="subtle" size="compact-xs" onClick={() => setOpened(true)} w="fit-content">
        Project settings
      </Button>
      {opened && (
        <Suspense fallback={null}>
          {/* Keyed by project: the form starts from the project it was opened on. */}
          <ProjectSettingsModal key={project.id} project={project} opened onClose={() => setOpened(false)} />
        </Suspense>
      )}
    </>
  );
}
