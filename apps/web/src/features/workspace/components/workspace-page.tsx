import { lazy, Suspense, useRef, useState } from 'react';
import { Alert, Box, Center, Loader } from '@mantine/core';
import { AiBlockReasonProvider, useAuth, useMe, useOwnAiBlockReason, useProfilesLimit } from '../../auth';
import {
  CreateProjectModal,
  NoProjectPrompt,
  createProjectBlockReason,
  useProjects,
  useSelectedProject,
} from '../../projects';
import { localPrefs } from '../../../lib/local-prefs';
import { useFocusStepHeading } from '../hooks/use-focus-step-heading';
import { useProjectStep } from '../hooks/use-project-step';
import { useRedditAuthReturn } from '../hooks/use-reddit-auth-return';
import { AiSubscriptionBanner } from './ai-subscription-banner';
import { ForeignProjectBanner } from './foreign-project-banner';
import { StepContent } from './step-content';
import { StepSidebar } from './step-sidebar';
import { TopBar } from './top-bar';
import layout from './workspace-layout.module.css';

// Loaded beside the first step, so the first page stays small.
const AccountsPanel = lazy(() => import('../../accounts').then((m) => ({ default: m.AccountsPanel })));
const AgentOverlay = lazy(() => import('../../agent').then((m) => ({ default: m.AgentOverlay })));

/** What lies under the agent's overlay: dimmed, and out of the pointer's reach as `inert` is of the keyboard's. */
const COVERED_STYLE = { opacity: 0.4, filter: 'grayscale(0.6)', pointerEvents: 'none' } as const;

/** '/': the main workspace with the five-step flow. */
export function WorkspacePage() {
  const auth = useAuth();
  const me = useMe();
  const profilesLimit = useProfilesLimit();
  const aiBlockReason = useOwnAiBlockReason();
  const projects = useProjects();
  const items = projects.data?.items;
  const { selected, select } = useSelectedProject(items, auth.user?.user_id ?? null);
  const [step, setStep] = useProjectStep(selected?.id ?? null);
  const mainRef = useRef<HTMLElement>(null);
  const focusOnCreated = useFocusStepHeading(mainRef, selected?.id ?? null, step);
  const [creating, setCreating] = useState(false);
  const [agentCovers, setAgentCovers] = useState(false);
  useRedditAuthReturn(select);

  const blockReason = createProjectBlockReason({
    isReadOnly: auth.isReadOnly,
    isModerator: auth.isModerator,
    profilesLimit,
    projectsUsed: me.data?.projects_used ?? items?.length ?? 0,
  });
  // Admins may open anyone's project, but only owners may change one.
  const foreign = Boolean(selected && selected.user_id !== auth.user?.user_id);
  const showOwner = foreign && auth.isAdmin;
  // Admins also start, stop and set up the agent of any project (spec section 6).
  const agentReadOnly = auth.isReadOnly || (foreign && !auth.isAdmin);

  let main;
  if (projects.isPending) {
    main = (
      <Center py="xl">
        <Loader aria-label="Loading projects" />
      </Center>
    );
  } else if (projects.isError && !items) {
    main = (
      <Alert color="red" role="alert">
        {projects.error.message}
      </Alert>
    );
  } else if (!selected) {
    main = (
      <NoProjectPrompt
        onCreate={() => setCreating(true)}
        blockReason={blockReason}
        othersCount={items?.length ?? 0}
      />
    );
  } else if (step === null) {
    // Where this browser keeps no step for the project, the first one not done yet is read first.
    main = (
      <Center py="xl">
        <Loader aria-label="Loading project" />
      </Center>
    );
  } else {
    const stepContent = (
      <StepContent
        projectId={selected.id}
        step={step}
        readOnly={auth.isReadOnly || foreign}
        agentReadOnly={agentReadOnly}
        onStep={setStep}
      />
    );
    main = (
      <AiBlockReasonProvider value={aiBlockReason}>
        {foreign && <ForeignProjectBanner project={selected} />}
        {aiBlockReason && <AiSubscriptionBanner />}
        {/* Step 5 is the agent's own view: it stays usable while the agent runs, the rest is covered. */}
        <Box pos="relative">
          <Box
            inert={agentCovers}
            aria-hidden={agentCovers || undefined}
            style={agentCovers ? COVERED_STYLE : undefined}
          >
            {/* Admins manage the accounts of any project (spec section 6); READONLY users only look. */}
            <Suspense fallback={null}>
              <AccountsPanel key={selected.id} projectId={selected.id} readOnly={auth.isReadOnly} />
            </Suspense>
            {step !== 5 && stepContent}
          </Box>
          <Suspense fallback={null}>
            <AgentOverlay
              key={selected.id}
              projectId={selected.id}
              readOnly={agentReadOnly}
              onCover={setAgentCovers}
            />
          </Suspense>
        </Box>
        {step === 5 && stepContent}
      </AiBlockReasonProvider>
    );
  }

  return (
    <Box mih="100vh" style={{ display: 'flex', flexDirection: 'column' }}>
      <Box
        component="header"
        style={{ borderBottom: '1px solid var(--mantine-color-default-border)', flexShrink: 0 }}
      >
        <TopBar
          projects={items ?? []}
          selectedProjectId={selected?.id ?? null}
          onSelectProject={select}
          onNewProject={() => setCreating(true)}
          newProjectBlockReason={blockReason}
        />
      </Box>
      <Box className={layout.body}>
        {selected && (
          <Box component="aside" aria-label="Project steps" p="md" className={layout.steps}>
            <StepSidebar
              project={selected}
              step={step}
              onStep={setStep}
              showOwner={showOwner}
              canManage={!foreign && !auth.isReadOnly}
            />
          </Box>
        )}
        <Box component="main" ref={mainRef} p="md" className={layout.main}>
          {main}
        </Box>
      </Box>
      <CreateProjectModal
        opened={creating}
        onClose={() => setCreating(false)}
        onCreated={(project) => {
          // A new project starts at step 1: nothing to read to know it.
          localPrefs.setStep(project.id, 1);
          focusOnCreated(project.id);
          select(project.id);
        }}
        blockReason={blockReason}
      />
    </Box>
  );
}
