import { describe, expect, it } from 'vitest';
import { FORBIDDEN_MESSAGES, SUBSCRIPTION_REQUIRED_MESSAGE, statusMessage } from './error-messages';

describe('402 and 403 messages', () => {
  it('maps 402 on any call to the subscription message', () => {
    expect(SUBSCRIPTION_REQUIRED_MESSAGE).toBe(
      'This feature requires an active subscription. Please upgrade your account to continue.',
    );
    expect(statusMessage(402, 'GET', '/projects', null)).toBe(SUBSCRIPTION_REQUIRED_MESSAGE);
    expect(statusMessage(402, 'POST', '/anything/else', 'x')).toBe(SUBSCRIPTION_REQUIRED_MESSAGE);
  });

  it.each([
    [
      'POST',
      '/projects',
      null,
      "You don't have permission to create projects. Please check your subscription status.",
    ],
    [
      'PUT',
      '/projects/p1',
      null,
      "You don't have permission to edit this project. You can only edit your own projects.",
    ],
    [
      'PATCH',
      '/projects/p1',
      null,
      "You don't have permission to edit this project. You can only edit your own projects.",
    ],
    [
      'DELETE',
      '/projects/p1',
      null,
      "You don't have permission to delete this project. You can only delete your own projects.",
    ],
    ['GET', '/projects/p1', null, "You don't have permission to view this project."],
    ['GET', '/projects', null, "You don't have permission to view this project."],
    [
      'POST',
      '/projects/p1/generate-keywords',
      null,
      'This feature requires an active subscription. Please upgrade to use AI-powered content generation.',
    ],
    [
      'POST',
      '/projects/p1/generate-subreddits',
      null,
      'This feature requires an active subscription. Please upgrade to use AI-powered content generation.',
    ],
    ['GET', '/projects/p1/keywords', null, "You don't have permission to access this project's content."],
    [
      'GET',
      '/projects/p1/subreddits/status',
      null,
      "You don't have permission to access this project's content.",
    ],
    [
      'POST',
      '/projects/p1/product-info',
      'Forbidden: READONLY users cannot write',
      'Your account has read-only access. Contact your administrator to modify data.',
    ],
    [
      'POST',
      '/projects',
      'READONLY',
      'Your account has read-only access. Contact your administrator to modify data.',
    ],
    [
      'GET',
      '/system/logs',
      'Requires MODERATOR role',
      'This action is restricted to moderators and administrators only.',
    ],
    [
      'GET',
      '/reddit-credentials',
      'ADMIN only',
      'This action is restricted to moderators and administrators only.',
    ],
    [
      'POST',
      '/projects/p1/agent-settings',
      'An active subscription is required',
      'This feature requires an active subscription. Please upgrade your account to continue.',
    ],
    [
      'POST',
      '/projects/p1/accounts',
      'profiles_limit exceeded',
      'This feature requires an active subscription. Please upgrade your account to continue.',
    ],
    [
      'POST',
      '/projects/p1/product-info',
      'Nope',
      "You don't have permission to perform this action. Please check your account status or contact support.",
    ],
  ])('403 %s %s (detail %s)', (method, path, detail, expected) => {
    expect(statusMessage(403, method, `/api/v1${path}?x=1`, detail)).toBe(expected);
  });

  it('has no mapping for other statuses', () => {
    expect(statusMessage(500, 'GET', '/projects', null)).toBeNull();
    expect(FORBIDDEN_MESSAGES.default).toContain('contact support');
  });
});
