import { lazy, Suspense, type ComponentProps } from 'react';
import { useReturnFocus } from '../../../lib/use-return-focus';

const CreateProjectModal = lazy(() =>
  import('./create-project-modal').then((m) => ({ default: m.CreateProjectModal })),
);

type TProps = ComponentProps<typeof CreateProjectModal>;

/** The Create New Project dialog, loaded the first time it opens; closing it puts focus back on its opener. */
export function LazyCreateProjectModal(props: TProps) {
  useReturnFocus(props.opened);
  if (!props.opened) return null;
  return (
    <Suspense fallback={null}>
      <CreateProjectModal {...props} />
    </Suspense>
  );
}
