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

function pathOnly(path: string): string {
  const withoutQuery = path.split('?')[0] ?? '';
  return withoutQuery.replace(/^\/api\/v1/, '').replace(/\/+$/, '');
}

/** The message for a 403 answer, chosen by method and path, then by the server's detail. */
export function forbiddenMessage(method: string, path: string, detail: string | null): string {
  const text = detail ?? '';
  if (text.includes('READONLY')) return FORBIDDEN_MESSAGES.readOnly;
  const m = method.toUpperCase();
  const p = pathOnly(path);
  if (/\/[^/]*(keywords|subreddits)/.test(p)) {
    return m === 'POST' ? FORBIDDEN_MESSAGES.generateContent : FORBIDDEN_MESSAGES.projectContent;
  }
  if (/^\/projects(\/[^/]+)?$/.test(p)) {
    if (m === 'POST') return FORBIDDEN_MESSAGES.createProject;
    if (m === 'PUT' || m === 'PATCH') return FORBIDDEN_MESSAGES.editProject;
    if (m === 'DELETE') return FORBIDDEN_MESSAGES.deleteProject;
    return FORBIDDEN_MESSAGES.viewProject;
  }
  if (text.includes('MODERATOR') || text.includes('ADMIN')) return FORBIDDEN_MESSAGES.moderatorsOnly;
  if (/subscription|profiles_limit/i.test(text)) return SUBSCRIPTION_REQUIRED_MESSAGE;
  return FORBIDDEN_MESSAGES.default;
}

/** The message for a 402 or 403 answer, or null for other statuses. */
export function statusMessage(status: number, method: string, path: string, detail: string | null) {
  if (status === 402) return SUBSCRIPTION_REQUIRED_MESSAGE;
  if (status === 403) return forbiddenMessage(method, path, detail);
  return null;
}
