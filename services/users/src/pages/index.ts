import express, { type Router } from 'express';
import { errors, PAGE_PATHS } from '@chat/contracts';
import type { Services } from '../context';
import { accountPages } from './account';
import { pageErrors } from './context';
import { emailChangePages } from './email-change';
import { loginPages } from './login';
import { resetPages } from './reset';
import { pageSecurity } from './session';
import { signupPages } from './signup';

/**
 * The server-rendered account pages (docs/accounts.md, "Browser pages"). Only their paths get
 * the security headers, cookies, session and CSRF check; other site routes (exports, calls) pass.
 */
export function pageRoutes(router: Router, services: Services): void {
  const security = pageSecurity(services);
  const pages = express.Router();
  pages.use((req, _res, next) => next(PAGE_PATHS.test(req.path) ? undefined : 'router'));
  pages.use(...security.middleware);
  signupPages(pages, services, security);
  loginPages(pages, services, security);
  resetPages(pages, services, security);
  accountPages(pages, services, security);
  emailChangePages(pages, services, security);
  // Logging out changes state: the family accepts it only as a POST, which the CSRF check covers.
  pages.get('/accounts/logout', (_req, _res, next) => next(errors.methodNotAllowed(['POST'])));
  pages.use((_req, _res, next) => next(errors.notFound('Page not found')));
  pages.use(pageErrors(services, security));
  router.use(pages);
}
