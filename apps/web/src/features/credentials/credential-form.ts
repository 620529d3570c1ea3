import {
  ZCreateCredentialRequest,
  ZUpdateCredentialRequest,
  type TCreateCredentialRequest,
  type TCredential,
  type TCredentialType,
  type TUpdateCredentialRequest,
} from '@threadreach/contract';

/** What the add and edit forms hold: plain strings, as the inputs give them. */
export interface TCredentialFormValues {
  type: TCredentialType;
  account_name: string;
  client_id: string;
  client_secret: string;
  description: string;
  enabled: boolean;
  country: string;
  state: string;
  city: string;
}

export type TCredentialFormField = keyof TCredentialFormValues;
export type TCredentialFormErrors = Partial<Record<TCredentialFormField, string>>;

type TResult<T> = { ok: true; data: T } | { ok: false; errors: TCredentialFormErrors };

export const EMPTY_CREDENTIAL_FORM: TCredentialFormValues = {
  type: 'search',
  account_name: '',
  client_id: '',
  client_secret: '',
  description: '',
  enabled: true,
  country: '',
  state: '',
  city: '',
};

/** The edit form's starting values; the secret is write-only, so it starts empty. */
export function formValuesOf(credential: TCredential): TCredentialFormValues {
  return {
    type: credential.type,
    account_name: credential.account_name,
    client_id: credential.client_id,
    client_secret: '',
    description: credential.description ?? '',
    enabled: credential.enabled,
    country: credential.proxy_preferences.country ?? '',
    state: credential.proxy_preferences.state ?? '',
    city: credential.proxy_preferences.city ?? '',
  };
}

/** Create stays disabled until these three are filled (spec section 2). */
export function hasRequiredCreateFields(values: TCredentialFormValues): boolean {
  return [values.account_name, values.client_id, values.client_secret].every((v) => v.trim() !== '');
}

interface TIssues {
  issues: readonly { path: readonly PropertyKey[]; message: string }[];
}

function fieldErrors(error: TIssues): TCredentialFormErrors {
  const errors: TCredentialFormErrors = {};
  for (const issue of error.issues) {
    const [first, second] = issue.path;
    const key = (first === 'proxy_preferences' ? second : first) as TCredentialFormField | undefined;
    if (key && !errors[key]) errors[key] = issue.message;
  }
  return errors;
}

function proxyPreferences(values: TCredentialFormValues) {
  return { country: values.country, state: values.state, city: values.city };
}

const descriptionOf = (values: TCredentialFormValues) =>
  values.description.trim() === '' ? null : values.description;

/** The POST body, checked with the contract's schema (the one the server uses). */
export function buildCreateRequest(values: TCredentialFormValues): TResult<TCreateCredentialRequest> {
  const parsed = ZCreateCredentialRequest.safeParse({
    type: values.type,
    account_name: values.account_name,
    client_id: values.client_id,
    client_secret: values.client_secret,
    description: descriptionOf(values),
    enabled: values.enabled,
    proxy_preferences: proxyPreferences(values),
  });
  return parsed.success ? { ok: true, data: parsed.data } : { ok: false, errors: fieldErrors(parsed.error) };
}

/** The PUT body of the edit form; an empty client secret is left out, which keeps the current one. */
export function buildUpdateRequest(values: TCredentialFormValues): TResult<TUpdateCredentialRequest> {
  const parsed = ZUpdateCredentialRequest.safeParse({
    account_name: values.account_name,
    ...(values.client_secret === '' ? {} : { client_secret: values.client_secret }),
    description: descriptionOf(values),
    proxy_preferences: proxyPreferences(values),
  });
  return parsed.success ? { ok: true, data: parsed.data } : { ok: false, errors: fieldErrors(parsed.error) };
}
