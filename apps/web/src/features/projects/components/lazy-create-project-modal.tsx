import { lazy, Suspense, type ComponentProps } from 'react';

const CreateProjectModal = lazy(() =>
  import('./create-project-modal').then((m) => ({ default: m.CreateProjectModal })),
);

type TProps = ComponentProps<typeof CreateProjectModal>;

/** The Create New Project dialog, loaded the first time it opens. */
export function LazyCreateProjectModal(props: TProps) {
  if (!props.opened) return null;
  return (
    <Suspense fallback={null}>
      <CreateProjectModal {...props} />
    </Suspense>
  );
}
