export { usersRoutes } from './users.routes';
export {
  ensureUser,
  findUserByEmail,
  findUserById,
  findUserByIdentity,
  insertUser,
  linkIdentity,
  updateProfilesLimit,
} from './users.repository';
export type { UserRow } from './users.table';
