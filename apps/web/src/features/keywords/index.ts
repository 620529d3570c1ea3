export { KeywordsStep, type TKeywordsStepProps, type TSubredditGeneration } from './components/keywords-step';
