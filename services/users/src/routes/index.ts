import type { Router } from 'express';
import type { Services } from '../context';
import { serverSettingsRoutes } from './server-settings';
import { usersRoutes } from './users';
import { profileFieldRoutes } from './profile-fields';
import { botRoutes } from './bots';
import { settingsRoutes } from './settings';
import { channelFolderRoutes } from './channel-folders';
import { inviteRoutes } from './invites';
import { unsubscribePages } from '../pages/unsubscribe';
import { pageRoutes } from '../pages';
import { authRoutes } from './auth';
import { statusRoutes } from './status';
import { linkifierRoutes } from './linkifiers';
import { personalRoutes } from './personal';
import { realmRoutes } from './realm';
import { userGroupRoutes } from './user-groups';
import { presenceRoutes } from './presence';
import { mutesAndDomainsRoutes } from './mutes-domains';
import { onboardingStepRoutes } from './onboarding-steps';
import { callRoutes, callSiteRoutes } from './calls';
import { playgroundRoutes } from './playgrounds';
import { botStorageRoutes } from './bot-storage';
import { exportFileRoutes, exportRoutes } from './exports';

/** Every route below /api/v1 this service owns (see API_ROUTES in packages/contracts). */
export function apiRoutes(router: Router, services: Services): void {
  serverSettingsRoutes(router, services);
  authRoutes(router, services);
  // Specific /users/me/... paths first: /users/:user would otherwise take them.
  profileFieldRoutes(router, services);
  statusRoutes(router, services);
  presenceRoutes(router, services);
  mutesAndDomainsRoutes(router, services);
  onboardingStepRoutes(router, services);
  personalRoutes(router, services);
  usersRoutes(router, services);
  botRoutes(router, services);
  settingsRoutes(router, services);
  channelFolderRoutes(router, services);
  inviteRoutes(router, services);
  linkifierRoutes(router, services);
  playgroundRoutes(router, services);
  botStorageRoutes(router, services);
  exportRoutes(router, services);
  realmRoutes(router, services);
  userGroupRoutes(router, services);
  callRoutes(router, services);
}

/** Routes outside /api/v1: the account pages (src/pages), call flows and finished realm exports. */
export function siteRoutes(router: Router, services: Services): void {
  unsubscribePages(router, services);
  pageRoutes(router, services);
  callSiteRoutes(router, services);
  exportFileRoutes(router, services);
}
