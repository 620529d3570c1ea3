import { PlaceholderPanel } from '../../../components/ui/placeholder-panel';
import { ProductInfoForm } from '../../product-info';
import { WORKFLOW_STEPS, type TStepNumber } from '../steps';

interface TStepContentProps {
  projectId: string;
  step: TStepNumber;
  readOnly: boolean;
  onStep: (step: TStepNumber) => void;
}

export function StepContent({ projectId, step, readOnly, onStep }: TStepContentProps) {
  if (step === 1) {
    return (
      <ProductInfoForm projectId={projectId} readOnly={readOnly} onKeywordsRegenerated={() => onStep(2)} />
    );
  }
  const title = WORKFLOW_STEPS.find((s) => s.step === step)?.title ?? '';
  return <PlaceholderPanel title={title} />;
}
