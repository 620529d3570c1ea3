import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { notifications } from '@mantine/notifications';
import {
  REDDIT_AUTH_RETURN_PARAMS,
  accountsEndpoints,
  isRedditCallbackMessage,
  redditAuthFailedMessage,
} from '@threadreach/contract';
import { call } from '../../../lib/api-client';

/** One page of a project's accounts: a project holds a handful, so this is all of them. */
const ACCOUNTS_CHECKED = 100;

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
 * Whether the project's accounts hold `username` (Reddit names ignore case): its name as the list spells
 * it; false when the whole list lacks it; null when that cannot be told (the list failed or is longer).
 */
async function connectedName(projectId: string, username: string): Promise<string | false | null> {
  try {
    const list = await call(accountsEndpoints.list, {
      params: { projectId },
      query: { limit: ACCOUNTS_CHECKED, offset: 0 },
    });
    const wanted = username.toLowerCase();
    const found = list.items.find((a) => a.reddit_username.toLowerCase() === wanted);
    if (found) return found.reddit_username;
    return list.items.length >= list.total ? false : null;
  } catch {
    return null;
  }
}

/**
 * "Reddit account u/… connected", naming only an account the project's list holds. Anyone can put
 * `auth=success&username=…` in a link: a name the list lacks says nothing, and when the list cannot be
 * read the notice names no one.
 */
async function announceConnected(username: string | null, projectId: string | null) {
  const name = username && projectId ? await connectedName(projectId, username) : null;
  if (name === false) return;
  notifications.show({
    color: 'green',
    message: name ? `Reddit account u/${name} connected` : 'Reddit account connected',
  });
}

/**
 * Back from Reddit's sign-in (spec section 2): reads auth, username, project_id and message, clears them
 * from the address, selects the project, and says how it went: a message the server's callback does not
 * send reads 'Unknown error'.
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
      void announceConnected(outcome.username, outcome.projectId);
    } else {
      // Only the server's own reasons: anyone can put words in a link's `message`.
      const known = outcome.message && isRedditCallbackMessage(outcome.message);
      notifications.show({
        color: 'red',
        message: redditAuthFailedMessage(known ? outcome.message! : 'Unknown error'),
      });
    }
  });
}
