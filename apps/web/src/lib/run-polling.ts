import { useCallback, useEffect, useRef, useState } from 'react';
import { RUN_POLL_INTERVAL_MS, RUN_POLL_TIMEOUT_MS, type TRunProgress } from '@threadreach/contract';

/** What every status call of a long-running action answers (subreddit generation, searches). */
export interface TRunStatus {
  status: string;
  error: string | null;
  duration_seconds: number | null;
  progress: TRunProgress | null;
}

/** The texts of spec section 8 for one kind of run. */
export interface TRunTexts {
  failed: (error: string) => string;
  timeout: string;
  checkFailed: string;
}

export type TRunState<S extends TRunStatus> =
  | { kind: 'idle' }
  | { kind: 'running'; status: S | null }
  | { kind: 'completed'; status: S }
  | { kind: 'error'; message: string };

interface TRunPollingOptions<S extends TRunStatus> {
  fetchStatus: () => Promise<S>;
  /** The status meaning "still running": polling goes on while the server answers it. */
  runningStatus: S['status'];
  texts: TRunTexts;
  onCompleted?: (status: S) => void;
  /**
   * Start by watching a run the user just started elsewhere, so its failure is shown; otherwise the
   * first check only picks up a run still going (a reload, another tab) and stays quiet about old ones.
   */
  watchFirst?: boolean;
}

/** The server's error, or 'Unknown error' when it gave none (spec section 8). */
export const UNKNOWN_ERROR = 'Unknown error';

/**
 * Polls a run's status every RUN_POLL_INTERVAL_MS until it is completed or failed (any other status
 * stops too), and gives up with the timeout text after RUN_POLL_TIMEOUT_MS (spec sections 4 and 9).
 * `watch()` starts following a run that was just started.
 */
export function useRunPolling<S extends TRunStatus>(options: TRunPollingOptions<S>) {
  const latest = useRef(options);
  useEffect(() => {
    latest.current = options;
  });
  const [state, setState] = useState<TRunState<S>>(() =>
    options.watchFirst ? { kind: 'running', status: null } : { kind: 'idle' },
  );
  const [request, setRequest] = useState({ id: 0, watching: options.watchFirst === true });

  useEffect(() => {
    let active = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let reporting = request.watching;
    const startedAt = Date.now();

    const poll = async () => {
      const { fetchStatus, runningStatus, texts } = latest.current;
      let status: S;
      try {
        status = await fetchStatus();
      } catch {
        if (active) setState({ kind: 'error', message: texts.checkFailed });
        return;
      }
      if (!active) return;
      if (status.status === runningStatus) {
        reporting = true;
        if (Date.now() - startedAt >= RUN_POLL_TIMEOUT_MS) {
          setState({ kind: 'error', message: texts.timeout });
          return;
        }
        setState({ kind: 'running', status });
        timer = setTimeout(() => void poll(), RUN_POLL_INTERVAL_MS);
        return;
      }
      if (reporting && status.status === 'completed') {
        setState({ kind: 'completed', status });
        latest.current.onCompleted?.(status);
      } else if (reporting && status.status === 'failed') {
        setState({ kind: 'error', message: texts.failed(status.error?.trim() || UNKNOWN_ERROR) });
      } else {
        setState({ kind: 'idle' });
      }
    };

    void poll();
    return () => {
      active = false;
      clearTimeout(timer);
    };
  }, [request]);

  /** Follows a run that was just started (or found already running): its outcome is shown. */
  const watch = useCallback(() => {
    setState({ kind: 'running', status: null });
    setRequest((r) => ({ id: r.id + 1, watching: true }));
  }, []);

  return { state, watch, running: state.kind === 'running' };
}
