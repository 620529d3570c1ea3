import { useState, type FormEvent } from 'react';
import { Alert, Button, Group, Modal, Stack } from '@mantine/core';
import { ZCreateProjectRequest, type TProject } from '@threadreach/contract';
import { createProjectErrorMessage } from '../create-project-errors';
import { useCreateProject } from '../hooks/use-projects';
import { ProjectFields } from './project-fields';

interface TCreateProjectModalProps {
  opened: boolean;
  onClose: () => void;
  onCreated: (project: TProject) => void;
  /** A reason the user may not create projects (limits, read-only), checked before sending. */
  blockReason?: string | null;
}

export function CreateProjectModal({ opened, onClose, onCreated, blockReason }: TCreateProjectModalProps) {
  const create = useCreateProject();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  // Focus goes to the new project, not back to the button that opened the dialog.
  const [created, setCreated] = useState(false);

  const close = () => {
    setName('');
    setDescription('');
    setNameError(null);
    setFormError(null);
    create.reset();
    onClose();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    const parsed = ZCreateProjectRequest.safeParse({ name, description: description || null });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      if (issue?.path[0] === 'name') setNameError(issue.message);
      else setFormError(issue?.message ?? 'Error creating project');
      return;
    }
    setNameError(null);
    if (blockReason) {
      setFormError(blockReason);
      return;
    }
    create.mutate(parsed.data, {
      onSuccess: (project) => {
        setCreated(true);
        onCreated(project);
        close();
      },
      onError: (error) => setFormError(createProjectErrorMessage(error)),
    });
  };

  return (
    <Modal
      opened={opened}
      onClose={close}
      title="Create New Project"
      centered
      returnFocus={!created}
      onExitTransitionEnd={() => setCreated(false)}
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          {formError && (
            <Alert color="red" role="alert">
              {formError}
            </Alert>
          )}
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
            <Button variant="default" onClick={close} type="button">
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Create Project
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
