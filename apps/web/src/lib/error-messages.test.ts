import { describe, expect, it } from 'vitest';
import {
  credentialsEndpoints,
  productInfoEndpoints,
  projectsEndpoints,
  systemEndpoints,
} from '@threadreach/contract';
import {
  FORBIDDEN_MESSAGES,
  SUBSCRIPTION_REQUIRED_MESSAGE,
  statusMessage,
  type TRouteRef,
} from './error-messages';

/** A route under one project that the contract does not declare yet (keywords, subreddits, …). */
const underProject = (method: TRouteRef['method'], rest: string): TRouteRef => ({
  method,
  path: `${projectsEndpoints.get.path}/${rest}`,
});

describe('402 and 403 messages', () => {
  it('maps 402 on any call to the subscription message', () => {
    expect(SUBSCRIPTION_REQUIRED_MESSAGE).toBe(
      'This feature requires an active subscription. Please upgrade your account to continue.',
    );
    expect(statusMessage(402, projectsEndpoints.list, null)).toBe(SUBSCRIPTION_REQUIRED_MESSAGE);
    expect(statusMessage(402, systemEndpoints.health, 'x')).toBe(SUBSCRIPTION_REQUIRED_MESSAGE);
  });

  it.each<[string, TRouteRef, string | null, string]>([
    [
      'create project',
      projectsEndpoints.create,
      null,
      "You don't have permission to create projects. Please check your subscription status.",
    ],
    [
      'update project',
      projectsEndpoints.update,
      null,
      "You don't have permission to edit this project. You can only edit your own projects.",
    ],
    [
      'delete project',
      projectsEndpoints.delete,
      null,
      "You don't have permission to delete this project. You can only delete your own projects.",
    ],
    ['get project', projectsEndpoints.get, null, "You don't have permission to view this project."],
    ['list projects', projectsEndpoints.list, null, "You don't have permission to view this project."],
    [
      'generate keywords',
      underProject('POST', 'generate-keywords'),
      null,
      'This feature requires an active subscription. Please upgrade to use AI-powered content generation.',
    ],
    [
      'generate subreddits',
      underProject('POST', 'generate-subreddits'),
      null,
      'This feature requires an active subscription. Please upgrade to use AI-powered content generation.',
    ],
    [
      'read keywords',
      underProject('GET', 'keywords'),
      null,
      "You don't have permission to access this project's content.",
    ],
    [
      'subreddit search status',
      underProject('GET', 'subreddits/status'),
      null,
      "You don't have permission to access this project's content.",
    ],
    [
      'save product info',
      productInfoEndpoints.saveAndRegenerate,
      'Forbidden: READONLY users cannot write',
      'Your account has read-only access. Contact your administrator to modify data.',
    ],
    [
      'create project',
      projectsEndpoints.create,
      'READONLY',
      'Your account has read-only access. Contact your administrator to modify data.',
    ],
    [
      'proxy pool stats',
      credentialsEndpoints.proxyPoolStats,
      'Requires MODERATOR role',
      'This action is restricted to moderators and administrators only.',
    ],
    [
      'list credentials',
      credentialsEndpoints.list,
      'ADMIN only',
      'This action is restricted to moderators and administrators only.',
    ],
    [
      'agent settings',
      underProject('POST', 'agent-settings'),
      'An active subscription is required',
      'This feature requires an active subscription. Please upgrade your account to continue.',
    ],
    [
      'connect an account',
      underProject('POST', 'accounts'),
      'profiles_limit exceeded',
      'This feature requires an active subscription. Please upgrade your account to continue.',
    ],
    [
      'save product info',
      productInfoEndpoints.saveAndRegenerate,
      'Nope',
      "You don't have permission to perform this action. Please check your account status or contact support.",
    ],
  ])('403 on %s (detail %s)', (_name, route, detail, expected) => {
    expect(statusMessage(403, route, detail)).toBe(expected);
  });

  it('has no mapping for other statuses', () => {
    expect(statusMessage(500, projectsEndpoints.list, null)).toBeNull();
    expect(FORBIDDEN_MESSAGES.default).toContain('contact support');
  });
});
