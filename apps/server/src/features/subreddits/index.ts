export { subredditsRoutes } from './subreddits.routes';
export { generateSubredditsJob } from './generate-subreddits.job';
export { checkGenerationCanStart, startSubredditGeneration } from './subreddits.service';
