export { LeadsStep, type TLeadsStepProps } from './components/leads-step';
