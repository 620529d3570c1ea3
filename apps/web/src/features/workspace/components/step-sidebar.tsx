import { Box, NavLink, Stack, Text, ThemeIcon } from '@mantine/core';
import type { TProject } from '@threadreach/contract';
import { ProjectSettingsButton } from '../../projects';
import { WORKFLOW_STEPS, type TStepNumber } from '../steps';
import classes from './step-sidebar.module.css';

interface TStepSidebarProps {
  project: TProject;
  /** Null while the step the project opens on is read. */
  step: TStepNumber | null;
  onStep: (step: TStepNumber) => void;
  /** Admin viewing another user's project: show the owner. */
  showOwner: boolean;
  /** The owner may rename and delete the project (not read-only users, not others' projects). */
  canManage: boolean;
}

export function StepSidebar({ project, step, onStep, showOwner, canManage }: TStepSidebarProps) {
  return (
    <Stack gap="md">
      <Box className={classes.project}>
        <Text size="xs" c="dimmed" tt="uppercase" fw={700} className={classes.projectLabel}>
          Project
        </Text>
        {/* A long name ends in an ellipsis inside the sidebar; hovering shows it whole. */}
        <Text
          fw={600}
          truncate="end"
          title={project.name}
          data-testid="current-project-name"
          className={classes.projectName}
        >
          {project.name}
        </Text>
        {/* Keyed by project: its dialog never stays open on the next project (after a delete, say). */}
        {canManage && <ProjectSettingsButton key={project.id} project={project} />}
        {showOwner && (
          <Box className={classes.owner}>
            <Text size="xs" c="dimmed">
              Owner ID: {project.user_id}
            </Text>
            <Text size="xs" c="dimmed" truncate="end" title={project.owner_email ?? undefined}>
              Owner e-mail: {project.owner_email ?? 'unknown'}
            </Text>
          </Box>
        )}
      </Box>
      <nav aria-label="Workflow steps" className={classes.steps}>
        {WORKFLOW_STEPS.map((s) => (
          <NavLink
            key={s.step}
            component="button"
            classNames={{ root: classes.step, label: classes.stepLabel, section: classes.stepSection }}
            label={s.title}
            // On a phone only the open step's title is written out: the others' show on hover.
            title={s.title}
            active={s.step === step}
            aria-current={s.step === step ? 'step' : undefined}
            onClick={() => onStep(s.step)}
            leftSection={
              <ThemeIcon size="sm" radius="xl" variant={s.step === step ? 'filled' : 'light'}>
                <Text size="xs" fw={700} aria-hidden>
                  {s.step}
                </Text>
              </ThemeIcon>
            }
          />
        ))}
      </nav>
    </Stack>
  );
}
