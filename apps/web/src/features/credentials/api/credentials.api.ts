import type {
  TConnectionTestResult,
  TCreateCredentialRequest,
  TCredential,
  TCredentialDetailed,
  TCredentialList,
  TCredentialType,
  TProxyDetailList,
  TProxyPoolStats,
  TUpdateCredentialRequest,
} from '@threadreach/contract';
import { api } from '../../../lib/api-client';

const BASE = '/reddit-credentials';
const one = (id: string) => `${BASE}/${encodeURIComponent(id)}`;

export interface TCredentialListParams {
  /** Omitted (undefined) for all types. */
  credentialType?: TCredentialType;
  includeDisabled: boolean;
  limit: number;
  offset: number;
}

export function listCredentials(params: TCredentialListParams): Promise<TCredentialList> {
  return api.get<TCredentialList>(BASE, {
    query: {
      include_disabled: params.includeDisabled,
      credential_type: params.credentialType,
      limit: params.limit,
      offset: params.offset,
    },
  });
}

export function createCredential(body: TCreateCredentialRequest): Promise<TCredential> {
  return api.post<TCredential>(BASE, body);
}

/** PUT; a body without client_secret keeps the stored secret. */
export function updateCredential(id: string, body: TUpdateCredentialRequest): Promise<TCredential> {
  return api.put<TCredential>(one(id), body);
}

export function deleteCredential(id: string): Promise<void> {
  return api.delete(one(id));
}

/** PATCH .../enable?enabled=…, no body. */
export function setCredentialEnabled(id: string, enabled: boolean): Promise<TCredential> {
  return api.patch<TCredential>(`${one(id)}/enable`, undefined, { query: { enabled } });
}

export function getCredentialDetailed(id: string): Promise<TCredentialDetailed> {
  return api.get<TCredentialDetailed>(`${one(id)}/detailed`);
}

export function testCredentialConnection(id: string): Promise<TConnectionTestResult> {
  return api.post<TConnectionTestResult>(`${one(id)}/test`);
}

export function replaceCredentialProxy(id: string): Promise<TCredentialDetailed> {
  return api.post<TCredentialDetailed>(`${one(id)}/replace-proxy`);
}

export function getProxyPoolStats(): Promise<TProxyPoolStats> {
  return api.get<TProxyPoolStats>('/proxy-pool/stats');
}

export function listProxyDetails(limit: number, offset: number): Promise<TProxyDetailList> {
  return api.get<TProxyDetailList>('/proxy-pool/details', { query: { limit, offset } });
}
