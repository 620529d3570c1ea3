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
import { credentialsEndpoints } from '@threadreach/contract';
import { call } from '../../../lib/api-client';

export interface TCredentialListParams {
  /** Omitted (undefined) for all types. */
  credentialType?: TCredentialType;
  includeDisabled: boolean;
  limit: number;
  offset: number;
}

export function listCredentials(params: TCredentialListParams): Promise<TCredentialList> {
  return call(credentialsEndpoints.list, {
    query: {
      include_disabled: String(params.includeDisabled),
      credential_type: params.credentialType,
      limit: params.limit,
      offset: params.offset,
    },
  });
}

export function createCredential(body: TCreateCredentialRequest): Promise<TCredential> {
  return call(credentialsEndpoints.create, { body });
}

/** PUT; a body without client_secret keeps the stored secret. */
export function updateCredential(id: string, body: TUpdateCredentialRequest): Promise<TCredential> {
  return call(credentialsEndpoints.update, { params: { id }, body });
}

export function deleteCredential(id: string): Promise<void> {
  return call(credentialsEndpoints.delete, { params: { id } });
}

/** PATCH .../enable?enabled=…, no body. */
export function setCredentialEnabled(id: string, enabled: boolean): Promise<TCredential> {
  return call(credentialsEndpoints.setEnabled, { params: { id }, query: { enabled: String(enabled) } });
}

export function getCredentialDetailed(id: string): Promise<TCredentialDetailed> {
  return call(credentialsEndpoints.detailed, { params: { id } });
}

export function testCredentialConnection(id: string): Promise<TConnectionTestResult> {
  return call(credentialsEndpoints.test, { params: { id } });
}

export function replaceCredentialProxy(id: string): Promise<TCredentialDetailed> {
  return call(credentialsEndpoints.replaceProxy, { params: { id } });
}

export function getProxyPoolStats(): Promise<TProxyPoolStats> {
  return call(credentialsEndpoints.proxyPoolStats);
}

export function listProxyDetails(limit: number, offset: number): Promise<TProxyDetailList> {
  return call(credentialsEndpoints.proxyPoolDetails, { query: { limit, offset } });
}
