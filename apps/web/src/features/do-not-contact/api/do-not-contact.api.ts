import {
  doNotContactEndpoints,
  type TAddDoNotContactRequest,
  type TAddDoNotContactResponse,
  type TDoNotContactList,
  type TImportDoNotContactRequest,
  type TImportDoNotContactResponse,
} from '@threadreach/contract';
import { call } from '../../../lib/api-client';

export interface TDoNotContactPage {
  limit: number;
  offset: number;
  search: string;
}

export function listDoNotContact(page: TDoNotContactPage): Promise<TDoNotContactList> {
  return call(doNotContactEndpoints.list, {
    query: { limit: page.limit, offset: page.offset, ...(page.search ? { search: page.search } : {}) },
  });
}

export function addDoNotContact(body: TAddDoNotContactRequest): Promise<TAddDoNotContactResponse> {
  return call(doNotContactEndpoints.add, { body });
}

export function removeDoNotContact(username: string): Promise<void> {
  return call(doNotContactEndpoints.remove, { params: { username } });
}

export function importDoNotContact(body: TImportDoNotContactRequest): Promise<TImportDoNotContactResponse> {
  return call(doNotContactEndpoints.import, { body });
}
