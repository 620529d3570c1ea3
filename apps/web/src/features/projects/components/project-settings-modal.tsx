import { useState, type FormEvent } from 'react';
import { Alert, Button, Divider, Group, Modal, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  PROJECT_DESCRIPTION_MAX,
  PROJECT_NAME_MAX,
  ZUpdateProjectRequest,
  type TProject,
} from '@threadreach/contract';
import { errorMessage } from '../../../lib/api-error';
import { deletedText, deleteFailedText } from '../../../lib/delete-texts';
import { useDeleteProject, useUpdateProject } from '../hooks/use-projects';

/** How the delete texts of spec section 8 name a project. */
export const PROJECT_ITEM = 'Project';
export const PROJECT_SAVED = 'Project saved';
export const DELETE_PROJECT_EXPLAINED =
  'Deletes the project with its keywords, subreddits, results, DMs and connected accounts. ' +
  'People its DMs reached stay on your do-not-contact list, so no other project contacts them again.';

interface TProjectSettingsModalProps {
  project: TProject;
  opened: boolean;
  onClose: () => void;
}

/** The project's name and description, and deleting it (after a second click that names it). */
export function ProjectSettingsModal({ project, opened, onClose }: TProjectSettingsModalProps) {
  const update = useUpdateProject(project.id);
  const remove = useDeleteProject();
  const [name, setName] = useState(project.name);
  const [description, setDescription] = useState(project.description ?? '');
  const [nameError, setNameError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);

  const close = () => {
    setName(project.name);
    setDescription(project.description ?? '');
    setNameError(null);
    setError(null);
    setConfirming(false);
    onClose();
  };

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
        close();
      },
      onError: (failure) => setError(errorMessage(failure, 'Error saving project')),
    });
  };

  const deleteProject = () => {
    setError(null);
    remove.mutate(project.id, {
      onSuccess: () => {
        notifications.show({ color: 'green', message: deletedText(PROJECT_ITEM) });
        close();
      },
      onError: (failure) => {
        notifications.show({ color: 'red', message: deleteFailedText(PROJECT_ITEM) });
        setError(errorMessage(failure, deleteFailedText(PROJECT_ITEM)));
      },
    });
  };

  return (
    <Modal opened={opened} onClose={close} title="Project settings" centered>
      <Stack gap="md">
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        <form onSubmit={save} noValidate>
          <Stack gap="md">
            <TextInput
              label="Project Name"
              required
              value={name}
              maxLength={PROJECT_NAME_MAX}
              onChange={(e) => {
                setName(e.currentTarget.value);
                if (nameError) setNameError(null);
              }}
              error={nameError}
              data-autofocus
            />
            <Textarea
              label="Description"
              value={description}
              maxLength={PROJECT_DESCRIPTION_MAX}
              resize="vertical"
              rows={3}
              onChange={(e) => setDescription(e.currentTarget.value)}
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={close} type="button">
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
          {confirming ? (
            <Group justify="space-between" wrap="nowrap">
              <Text size="sm" fw={600}>
                {`Delete "${project.name}"? This cannot be undone.`}
              </Text>
              <Group gap="xs" wrap="nowrap">
                <Button variant="default" size="xs" onClick={() => setConfirming(false)}>
                  Keep
                </Button>
                <Button color="red" size="xs" loading={remove.isPending} onClick={deleteProject}>
                  Delete
                </Button>
              </Group>
            </Group>
          ) : (
            <Group justify="flex-end">
              <Button color="red" variant="light" onClick={() => setConfirming(true)}>
                Delete Project
              </Button>
            </Group>
          )}
        </Stack>
      </Stack>
    </Modal>
  );
}
