import { lazy, Suspense, useState } from 'react';
import { Button } from '@mantine/core';
import type { TProject } from '@threadreach/contract';
import { useReturnFocus } from '../../../lib/use-return-focus';

const ProjectSettingsModal = lazy(() =>
  import('./project-settings-modal').then((m) => ({ default: m.ProjectSettingsModal })),
);

/**
 * 'Project settings': renaming and deleting the project, in a dialog loaded the first time it opens. Its
 * user keys it by project, so the dialog belongs to the project it was opened on. Closing it puts focus back
 * on the button.
 */
export function ProjectSettingsButton({ project }: { project: TProject }) {
  const [opened, setOpened] = useState(false);
  useReturnFocus(opened);
  return (
    <>
      <Button variant="subtle" size="compact-xs" onClick={() => setOpened(true)} w="fit-content">
        Project settings
      </Button>
      {opened && (
        <Suspense fallback={null}>
          <ProjectSettingsModal project={project} onClose={() => setOpened(false)} />
        </Suspense>
      )}
    </>
  );
}
