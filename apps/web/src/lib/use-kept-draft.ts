import { useEffect, useState, type Dispatch, type SetStateAction } from 'react';
import { localPrefs, type TDraftForm } from './local-prefs';

/** What a kept draft was made from: a draft over anything else is dropped when read back. */
const draftBase = (saved: unknown): string => JSON.stringify(saved);

/**
 * Keeps `values` as the form's draft over `saved`, as `useKeptDraft` reads it back when the form is
 * started over from `saved` (a list reloaded under unsaved edits, for example).
 */
export function keepDraft(form: TDraftForm, projectId: string, saved: unknown, values: unknown): void {
  localPrefs.setDraft(form, projectId, { base: draftBase(saved), values });
}

/**
 * A form's values, its unsaved edits kept per project in local storage: they outlast a switch of step or
 * project, a refetch that remounts the form, and a reload, and go once the form holds what is saved (after
 * a save) or at logout. Edits made from something saved differently since are dropped. Values compare as
 * JSON, so a form keeps its keys in the order `saved` has them.
 */
export function useKeptDraft<T>(
  form: TDraftForm,
  projectId: string,
  saved: T,
  isValues: (values: unknown) => values is T,
): [T, Dispatch<SetStateAction<T>>, boolean] {
  const base = draftBase(saved);
  const [values, setValues] = useState<T>(() => {
    const draft = localPrefs.getDraft(form, projectId);
    return draft && draft.base === base && isValues(draft.values) ? draft.values : saved;
  });
  const current = JSON.stringify(values);
  const unsaved = current !== base;
  useEffect(() => {
    localPrefs.setDraft(form, projectId, unsaved ? { base, values: JSON.parse(current) as unknown } : null);
  }, [form, projectId, base, current, unsaved]);
  return [values, setValues, unsaved];
}
