import { useState, type FormEvent } from 'react';
import { Alert, Button, Divider, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { ZUpdateProjectRequest, type TProject } from '@threadreach/contract';
import { errorMessage } from '../../../lib/api-error';
import { useUpdateProject } from '../hooks/use-projects';
import { ProjectFields } from './project-fields';
import { DELETE_PROJECT_EXPLAINED, DeleteProjectButton } from './delete-project-button';

export const PROJECT_SAVED = 'Project saved';

interface TProjectSettingsModalProps {
  project: TProject;
  onClose: () => void;
}

/**
 * The project's name and description, and deleting it (after a second click that names it). Shown while
 * mounted: each opening starts from the project as it is.
 */
export function ProjectSettingsModal({ project, onClose }: TProjectSettingsModalProps) {
  const update = useUpdateProject(project.id);
  const [name, setName] = useState(project.name);
  const [description, setDescription] = useState(project.description ?? '');
  const [nameError, setNameError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const save = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const parsed = ZUpdateProjectRequest.safeParse({ name, description: description || null });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      if (issue?.path[0] === 'name') setNameError(issue.message);
      else setError(issue?.message ?? 'Error saving project');
      return;
    }
    update.mutate(parsed.data, {
      onSuccess: () => {
        notifications.show({ color: 'green', message: PROJECT_SAVED });
        onClose();
      },
      onError: (failure) => setError(errorMessage(failure, 'Error saving project')),
    });
  };

  return (
    <Modal opened onClose={onClose} title="Project settings" centered>
      <Stack gap="md">
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        <form onSubmit={save} noValidate>
          <Stack gap="md">
            <ProjectFields
              name={name}
              description={description}
              nameError={nameError}
              onName={(value) => {
                setName(value);
                if (nameError) setNameError(null);
              }}
              onDescription={setDescription}
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose} type="button">
                Cancel
              </Button>
              <Button type="submit" loading={update.isPending}>
                Save
              </Button>
            </Group>
          </Stack>
        </form>
        <Divider />
        <Stack gap="xs" component="section" aria-labelledby="delete-project-title">
          <Title order={3} size="h5" id="delete-project-title">
            Delete project
          </Title>
          <Text size="sm" c="dimmed">
            {DELETE_PROJECT_EXPLAINED}
          </Text>
          <Group justify="flex-end">
            <DeleteProjectButton project={project} onDeleted={onClose} onFailed={setError} />
          </Group>
        </Stack>
      </Stack>
    </Modal>
  );
}
