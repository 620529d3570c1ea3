import { lazy, Suspense, useState } from 'react';
import { Center, Loader, Stack } from '@mantine/core';
import { ProductInfoForm } from '../../product-info';
import { STEP_CONTENT_ATTRIBUTE } from '../hooks/use-focus-step-heading';
import { WORKFLOW_STEPS, type TStepNumber } from '../steps';

// Steps 2-5 load when first opened, so the first page stays small.
const KeywordsStep = lazy(() => import('../../keywords').then((m) => ({ default: m.KeywordsStep })));
const SubredditsStep = lazy(() => import('../../subreddits').then((m) => ({ default: m.SubredditsStep })));
const LeadsStep = lazy(() => import('../../leads').then((m) => ({ default: m.LeadsStep })));
const AgentActivityStep = lazy(() => import('../../agent').then((m) => ({ default: m.AgentActivityStep })));
const MonthlyStatisticsPanel = lazy(() =>
  import('../../statistics').then((m) => ({ default: m.MonthlyStatisticsPanel })),
);

interface TStepContentProps {
  projectId: string;
  step: TStepNumber;
  readOnly: boolean;
  /** Whether the agent may be started, stopped and set up here (owners, and admins on any project). */
  agentReadOnly: boolean;
  onStep: (step: TStepNumber) => void;
}

export function StepContent({ projectId, step, readOnly, agentReadOnly, onStep }: TStepContentProps) {
  // The project whose subreddit generation was just started from step 2: step 3 follows it from the start.
  const [generationStartedFor, setGenerationStartedFor] = useState<string | null>(null);
  const go = (next: TStepNumber, generationStarted = false) => {
    setGenerationStartedFor(generationStarted ? projectId : null);
    onStep(next);
  };

  let screen;
  if (step === 1) {
    screen = (
      <ProductInfoForm projectId={projectId} readOnly={readOnly} onKeywordsRegenerated={() => go(2)} />
    );
  } else if (step === 2) {
    screen = (
      <KeywordsStep
        key={projectId}
        projectId={projectId}
        readOnly={readOnly}
        onBack={() => go(1)}
        onSkip={() => go(3)}
        onApproved={(generation) => go(3, generation !== 'not_requested')}
      />
    );
  } else if (step === 3) {
    screen = (
      <SubredditsStep
        key={projectId}
        projectId={projectId}
        readOnly={readOnly}
        watchGeneration={generationStartedFor === projectId}
        onBack={() => go(2)}
        onSkip={() => go(4)}
        onApproved={() => go(4)}
      />
    );
  } else if (step === 4) {
    screen = (
      <LeadsStep key={projectId} projectId={projectId} readOnly={readOnly} agentReadOnly={agentReadOnly} />
    );
  } else {
    // Step 5 is where a campaign's results are read: the project's statistics sit under its activity.
    screen = (
      <Stack>
        <AgentActivityStep
          key={projectId}
          projectId={projectId}
          readOnly={agentReadOnly}
          onBack={() => go(4)}
        />
        <MonthlyStatisticsPanel key={projectId} projectId={projectId} />
      </Stack>
    );
  }
  // A landmark named after the step, so a screen reader's list of regions leads straight to it.
  const marker = {
    [STEP_CONTENT_ATTRIBUTE]: true,
    'aria-label': WORKFLOW_STEPS.find((s) => s.step === step)?.title,
  };
  if (step === 1) return <section {...marker}>{screen}</section>;
  return (
    <section {...marker}>
      <Suspense
        fallback={
          <Center py="xl">
            <Loader aria-label="Loading step" />
          </Center>
        }
      >
        {screen}
      </Suspense>
    </section>
  );
}
