import { ApiError } from '../../lib/api-error';
import { SUBSCRIPTION_REQUIRED_MESSAGE } from '../../lib/error-messages';

/** Project-creation texts of spec section 8 ("Workflow"). */
export const CREATE_PROJECT_MESSAGES = {
  subscription: SUBSCRIPTION_REQUIRED_MESSAGE,
  noPermission: "You don't have permission to create projects.",
  limitReached: 'Project limit reached. Upgrade your subscription to create more projects.',
  paymentRequired: 'Project limit reached',
  failed: 'Error creating project',
} as const;

interface TCreateAllowance {
  isReadOnly: boolean;
  isModerator: boolean;
  profilesLimit: number;
  projectsUsed: number;
}

/**
 * Why the user may not create a project, or null when they may: spec section 8's project-creation texts.
 * Read-only users never may (the top bar flags them read-only besides); moderators and admins have no
 * limit; others are blocked at a limit of 0 or when it is used up.
 */
export function createProjectBlockReason(a: TCreateAllowance): string | null {
  if (a.isReadOnly) return CREATE_PROJECT_MESSAGES.noPermission;
  if (a.isModerator) return null;
  if (a.profilesLimit <= 0) return CREATE_PROJECT_MESSAGES.subscription;
  if (a.projectsUsed >= a.profilesLimit) return CREATE_PROJECT_MESSAGES.limitReached;
  return null;
}

/** The message for a failed create call: the server's detail first, then the spec's default. */
export function createProjectErrorMessage(error: unknown): string {
  const detail = error instanceof ApiError ? error.detail : null;
  const status = error instanceof ApiError ? error.status : 0;
  if (status === 403) return detail ?? CREATE_PROJECT_MESSAGES.limitReached;
  if (status === 402) return detail ?? CREATE_PROJECT_MESSAGES.paymentRequired;
  return detail ?? CREATE_PROJECT_MESSAGES.failed;
}
