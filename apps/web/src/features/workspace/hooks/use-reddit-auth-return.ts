import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { notifications } from '@mantine/notifications';
import { REDDIT_AUTH_RETURN_PARAMS, redditAuthFailedMessage } from '@threadreach/contract';

/** The outcome the server's Reddit callback put in the address, or null when there is none. */
export function readRedditAuthReturn(search: string): {
  ok: boolean;
  username: string | null;
  projectId: string | null;
  message: string | null;
} | null {
  const params = new URLSearchParams(search);
  const auth = params.get('auth');
  if (auth !== 'success' && auth !== 'error') return null;
  return {
    ok: auth === 'success',
    username: params.get('username'),
    projectId: params.get('project_id'),
    message: params.get('message'),
  };
}

/**
 * Back from Reddit's sign-in (spec section 2): reads auth, username, project_id and message, clears them
 * from the address, selects the project, and says how it went.
 */
export function useRedditAuthReturn(selectProject: (projectId: string) => void) {
  const { pathname, search, hash } = useLocation();
  const navigate = useNavigate();
  const handled = useRef<string | null>(null);
  const outcome = readRedditAuthReturn(search);

  useEffect(() => {
    if (!outcome || handled.current === search) return;
    handled.current = search;
    const rest = new URLSearchParams(search);
    for (const name of REDDIT_AUTH_RETURN_PARAMS) rest.delete(name);
    const query = rest.toString();
    navigate(`${pathname}${query ? `?${query}` : ''}${hash}`, { replace: true });
    if (outcome.projectId) selectProject(outcome.projectId);
    if (outcome.ok) {
      notifications.show({
        color: 'green',
        message: outcome.username
          ? `Reddit account u/${outcome.username} connected`
          : 'Reddit account connected',
      });
    } else {
      notifications.show({
        color: 'red',
        message: redditAuthFailedMessage(outcome.message || 'Unknown error'),
      });
    }
  });
}
