export { SubredditsStep, type TSubredditsStepProps } from './components/subreddits-step';
