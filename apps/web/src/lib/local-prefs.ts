/**
 * Small values kept in local storage: the selected project, and per project its step, its tab, the order
 * of its results, their minimum intent score, what its searches read (posts, comments), and the edits not
 * saved yet (DMs, product information, keywords).
 */
const SELECTED_PROJECT_KEY = 'selectedProjectId';
const SIGNED_OUT_KEY = 'signedOut';
const STEP_KEY_PREFIX = 'projectStep:';
const TAB_KEY_PREFIX = 'projectTab:';
const SORT_KEY_PREFIX = 'projectSort:';
const MIN_SCORE_KEY_PREFIX = 'projectMinScore:';
const SEARCH_TYPES_KEY_PREFIX = 'projectSearchTypes:';
const DM_EDITS_KEY_PREFIX = 'projectDmEdits:';
const DRAFT_KEY_PREFIX = 'projectDraft:';
/** Every per-project key starts with one of these; all of them are forgotten at logout. */
const PER_PROJECT_PREFIXES = [
  STEP_KEY_PREFIX,
  TAB_KEY_PREFIX,
  SORT_KEY_PREFIX,
  MIN_SCORE_KEY_PREFIX,
  SEARCH_TYPES_KEY_PREFIX,
  DM_EDITS_KEY_PREFIX,
  DRAFT_KEY_PREFIX,
];

/** The forms of a project whose unsaved edits are kept: step 1 and step 2. */
export type TDraftForm = 'productInfo' | 'keywords';

/**
 * A form's unsaved edits: `base` names what was saved when they were made (a form drops edits made from
 * something saved differently since), `values` what the form holds, for the form to check.
 */
export interface TFormDraft {
  base: string;
  values: unknown;
}

/** A stored JSON value as `pick` reads it; null when nothing is stored or it is not JSON. */
function parseStored<T>(stored: string | null, pick: (parsed: unknown) => T | null): T | null {
  if (!stored) return null;
  try {
    return pick(JSON.parse(stored));
  } catch {
    return null;
  }
}

function parseDraft(stored: string | null): TFormDraft | null {
  return parseStored(stored, (value) => {
    const parsed = value as Partial<TFormDraft> | null;
    return parsed && typeof parsed.base === 'string' && 'values' in parsed
      ? { base: parsed.base, values: parsed.values }
      : null;
  });
}

/** What a search reads: posts, comments or both. */
export interface TSearchTypes {
  posts: boolean;
  comments: boolean;
}

function parseSearchTypes(stored: string | null): TSearchTypes | null {
  return parseStored(stored, (value) => {
    const parsed = value as Partial<TSearchTypes> | null;
    return parsed && typeof parsed.posts === 'boolean' && typeof parsed.comments === 'boolean'
      ? { posts: parsed.posts, comments: parsed.comments }
      : null;
  });
}

/** Texts by DM id, as stored; anything else stored there is ignored. */
function parseDmEdits(stored: string | null): Record<string, string> {
  const edits = parseStored(stored, (parsed) =>
    typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? Object.fromEntries(
          Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
        )
      : null,
  );
  return edits ?? {};
}

function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // storage may be unavailable (private mode); the value then lives only in memory
  }
}

export const localPrefs = {
  getSelectedProjectId: () => read(SELECTED_PROJECT_KEY),
  setSelectedProjectId: (id: string | null) => write(SELECTED_PROJECT_KEY, id),
  getStep: (projectId: string): number | null => {
    const n = Number(read(STEP_KEY_PREFIX + projectId));
    return Number.isInteger(n) && n >= 1 ? n : null;
  },
  setStep: (projectId: string, step: number) => write(STEP_KEY_PREFIX + projectId, String(step)),
  getTab: (projectId: string): string | null => read(TAB_KEY_PREFIX + projectId),
  setTab: (projectId: string, tab: string) => write(TAB_KEY_PREFIX + projectId, tab),
  getSort: (projectId: string): string | null => read(SORT_KEY_PREFIX + projectId),
  setSort: (projectId: string, sort: string) => write(SORT_KEY_PREFIX + projectId, sort),
  getMinScore: (projectId: string): string | null => read(MIN_SCORE_KEY_PREFIX + projectId),
  setMinScore: (projectId: string, score: string) => write(MIN_SCORE_KEY_PREFIX + projectId, score),
  getSearchTypes: (projectId: string): TSearchTypes | null =>
    parseSearchTypes(read(SEARCH_TYPES_KEY_PREFIX + projectId)),
  setSearchTypes: (projectId: string, types: TSearchTypes) =>
    write(SEARCH_TYPES_KEY_PREFIX + projectId, JSON.stringify(types)),
  /** DM texts edited and not saved yet, by DM id: they outlast a switch of project or page, or a reload. */
  getDmEdits: (projectId: string): Record<string, string> =>
    parseDmEdits(read(DM_EDITS_KEY_PREFIX + projectId)),
  setDmEdits: (projectId: string, edits: Record<string, string>) =>
    write(DM_EDITS_KEY_PREFIX + projectId, Object.keys(edits).length > 0 ? JSON.stringify(edits) : null),
  /** A form's edits not saved yet, with what they were made from: they outlast a switch of step or a reload. */
  getDraft: (form: TDraftForm, projectId: string): TFormDraft | null =>
    parseDraft(read(`${DRAFT_KEY_PREFIX}${form}:${projectId}`)),
  setDraft: (form: TDraftForm, projectId: string, draft: TFormDraft | null) =>
    write(`${DRAFT_KEY_PREFIX}${form}:${projectId}`, draft ? JSON.stringify(draft) : null),
  /** Set at logout until the next sign-in: the provider is then asked to let the person choose who signs in. */
  getSignedOut: () => read(SIGNED_OUT_KEY) === '1',
  setSignedOut: (signedOut: boolean) => write(SIGNED_OUT_KEY, signedOut ? '1' : null),
  /** Forgets the selected project and every per-project value: the next user starts afresh. */
  forgetAll: () => {
    write(SELECTED_PROJECT_KEY, null);
    try {
      const storage = window.localStorage;
      const keys = Array.from({ length: storage.length }, (_, i) => storage.key(i));
      for (const key of keys) {
        if (key && PER_PROJECT_PREFIXES.some((prefix) => key.startsWith(prefix))) storage.removeItem(key);
      }
    } catch {
      // nothing was stored when storage is unavailable
    }
  },
};
