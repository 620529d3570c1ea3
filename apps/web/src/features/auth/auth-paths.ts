import { safeRedirectPath } from '../../lib/navigation';

export const LOGIN_ROUTE = '/login';
export const AUTH_CALLBACK_ROUTE = '/auth/callback';
export const SUBSCRIBE_ROUTE = '/subscribe';

const UNGATED_PREFIXES = ['/subscribe', '/subscription', AUTH_CALLBACK_ROUTE];

/** Subscription-related paths and the SSO return page are not behind the authentication gate. */
export function isSubscriptionPath(pathname: string): boolean {
  return UNGATED_PREFIXES.some((prefix) => pathname.startsWith(prefix));
}

/** Where sign-in should return to: the login page's redirect parameter, else the current address. */
export function loginReturnTarget(pathname: string, search: string, hash: string): string | undefined {
  if (pathname === LOGIN_ROUTE) {
    const target = safeRedirectPath(new URLSearchParams(search).get('redirect'));
    return target === '/' ? undefined : target;
  }
  const address = `${pathname}${search}${hash}`;
  return address === '/' ? undefined : address;
}

/** The address with the v3 parameter removed. */
export function addressWithoutV3(pathname: string, search: string, hash: string): string {
  const params = new URLSearchParams(search);
  params.delete('v3');
  const qs = params.toString();
  return `${pathname}${qs ? `?${qs}` : ''}${hash}`;
}
