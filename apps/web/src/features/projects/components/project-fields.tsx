import { TextInput, Textarea } from '@mantine/core';
import { PROJECT_DESCRIPTION_MAX, PROJECT_NAME_MAX } from '@threadreach/contract';

interface TProjectFieldsProps {
  name: string;
  description: string;
  nameError: string | null;
  onName: (name: string) => void;
  onDescription: (description: string) => void;
}

/** Project Name (required) and Description: the fields of creating a project and of its settings. */
export function ProjectFields({ name, description, nameError, onName, onDescription }: TProjectFieldsProps) {
  return (
    <>
      <TextInput
        label="Project Name"
        required
        value={name}
        maxLength={PROJECT_NAME_MAX}
        onChange={(e) => onName(e.currentTarget.value)}
        error={nameError}
        data-autofocus
      />
      <Textarea
        label="Description"
        value={description}
        maxLength={PROJECT_DESCRIPTION_MAX}
        resize="vertical"
        rows={3}
        onChange={(e) => onDescription(e.currentTarget.value)}
      />
    </>
  );
}
