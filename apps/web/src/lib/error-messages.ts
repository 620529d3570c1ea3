import { projectsEndpoints, type TEndpoint } from '@threadreach/contract';

/** Texts of spec section 8, "Request errors". */
export const SUBSCRIPTION_REQUIRED_MESSAGE =
  'This feature requires an active subscription. Please upgrade your account to continue.';
export const FORBIDDEN_MESSAGES = {
  createProject: "You don't have permission to create projects. Please check your subscription status.",
  editProject: "You don't have permission to edit this project. You can only edit your own projects.",
  deleteProject: "You don't have permission to delete this project. You can only delete your own projects.",
  viewProject: "You don't have permission to view this project.",
  generateContent:
    'This feature requires an active subscription. Please upgrade to use AI-powered content generation.',
  projectContent: "You don't have permission to access this project's content.",
  readOnly: 'Your account has read-only access. Contact your administrator to modify data.',
  moderatorsOnly: 'This action is restricted to moderators and administrators only.',
  default:
    "You don't have permission to perform this action. Please check your account status or contact support.",
} as const;

/** What the 403 texts are chosen by: the route's method and its path pattern. */
export type TRouteRef = Pick<TEndpoint, 'method' | 'path'>;

const PROJECT_MESSAGES = new Map<TRouteRef, string>([
  [projectsEndpoints.list, FORBIDDEN_MESSAGES.viewProject],
  [projectsEndpoints.get, FORBIDDEN_MESSAGES.viewProject],
  [projectsEndpoints.create, FORBIDDEN_MESSAGES.createProject],
  [projectsEndpoints.update, FORBIDDEN_MESSAGES.editProject],
  [projectsEndpoints.delete, FORBIDDEN_MESSAGES.deleteProject],
]);

/** Keyword and subreddit routes of a project, whatever their name under it. */
const PROJECT_CONTENT = /\/[^/]*(keywords|subreddits)/;

/** The message for a 403 answer, chosen by the route, then by the server's detail. */
export function forbiddenMessage(route: TRouteRef, detail: string | null): string {
  const text = detail ?? '';
  if (text.includes('READONLY')) return FORBIDDEN_MESSAGES.readOnly;
  if (PROJECT_CONTENT.test(route.path)) {
    return route.method === 'POST' ? FORBIDDEN_MESSAGES.generateContent : FORBIDDEN_MESSAGES.projectContent;
  }
  const projectMessage = PROJECT_MESSAGES.get(route);
  if (projectMessage) return projectMessage;
  if (text.includes('MODERATOR') || text.includes('ADMIN')) return FORBIDDEN_MESSAGES.moderatorsOnly;
  if (/subscription|profiles_limit/i.test(text)) return SUBSCRIPTION_REQUIRED_MESSAGE;
  return FORBIDDEN_MESSAGES.default;
}

/** The message for a 402 or 403 answer, or null for other statuses. */
export function statusMessage(status: number, route: TRouteRef, detail: string | null) {
  if (status === 402) return SUBSCRIPTION_REQUIRED_MESSAGE;
  if (status === 403) return forbiddenMessage(route, detail);
  return null;
}
