import { endpoint, scope } from './endpoint';
import {
  ZAddDoNotContactRequest,
  ZAddDoNotContactResponse,
  ZDoNotContactList,
  ZDoNotContactParams,
  ZDoNotContactQuery,
  ZImportDoNotContactRequest,
  ZImportDoNotContactResponse,
} from './suppressions.schema';

const tags = ['do-not-contact'];

/** The caller's own workspace's do-not-contact list: nobody on it gets a DM from any of its projects. */
export const doNotContactEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/api/v1/do-not-contact',
    summary: 'The do-not-contact list of the workspace, newest first',
    tags,
    scope: scope.user('read'),
    query: ZDoNotContactQuery,
    responses: { 200: ZDoNotContactList },
  }),
  add: endpoint({
    method: 'POST',
    path: '/api/v1/do-not-contact',
    summary: 'Put Reddit users on the do-not-contact list',
    tags,
    scope: scope.user('write'),
    body: ZAddDoNotContactRequest,
    responses: { 200: ZAddDoNotContactResponse },
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/api/v1/do-not-contact/:username',
    summary: 'Take a user off the list; people who asked not to be contacted stay (409)',
    tags,
    scope: scope.user('write'),
    params: ZDoNotContactParams,
    responses: { 204: null },
  }),
  import: endpoint({
    method: 'POST',
    path: '/api/v1/do-not-contact/import',
    summary: 'Add the names of a CSV file (one per line, or a username column)',
    tags,
    scope: scope.user('write'),
    body: ZImportDoNotContactRequest,
    responses: { 200: ZImportDoNotContactResponse },
  }),
};
