/**
 * The User object is defined once, in @chat/wire, for this service and for register's
 * realm_users; these are the names this service's code knows it by.
 */
export {
  emailVisibilityOf, isoMinutes, userObject as formatUser, type UserObjectOptions as FormatOptions,
  type UserObjectRow as UserRow, type Viewer,
} from '@chat/wire';
