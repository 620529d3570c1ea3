import { useEffect, useState, type Dispatch, type SetStateAction } from 'react';
import { localPrefs, type TDraftForm } from './local-prefs';

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
  const base = JSON.stringify(saved);
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
