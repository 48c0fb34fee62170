import type { Request, Response, Router } from 'express';
import { ApiError, errors } from '@chat/contracts';
import type { Services } from '../context';
import { doUnsubscribe } from '../actions/unsubscribe';
import { escapeHtml } from '../lib/render';
import { renderPage, sendErrorPage, wantsJson } from './layout';

const WHAT: Record<string, string> = {
  missed_messages: 'missed-message emails',
  digest: 'digest emails',
  login: 'new login emails',
};

/**
 * `/accounts/unsubscribe/<kind>/<token>`: the link in a mail's footer (GET, as the family's) and
 * its List-Unsubscribe-Post one-click form (POST). No login and no CSRF token: the signed token
 * is the permission, and turning a kind of mail off is all it can do.
 */
export function unsubscribePages(router: Router, services: Services): void {
  const handle = async (req: Request, res: Response) => {
    try {
      if (!req.identity) throw errors.missingIdentity();
      const kind = String(req.params.kind);
      await doUnsubscribe(services, req.identity, kind, String(req.params.token));
      if (req.method === 'POST' || wantsJson(req)) {
        res.json({ result: 'success', msg: '' });
        return;
      }
      const body =
        `<p>You have been unsubscribed from ${escapeHtml(WHAT[kind] ?? kind)}.</p>` +
        `<p>You can change this, and your other notification settings, in <a href="/#settings/notifications">your settings</a>.</p>`;
      res.type('html').send(renderPage({ title: 'Email settings updated', body }));
    } catch (err) {
      const apiErr = err instanceof ApiError ? err : errors.badRequest('Unknown email unsubscribe request');
      if (!(err instanceof ApiError)) services.log.warn({ err }, 'unsubscribe failed');
      sendErrorPage(req, res, apiErr, 'Unsubscribe');
    }
  };
  router.get('/accounts/unsubscribe/:kind/:token', handle);
  router.post('/accounts/unsubscribe/:kind/:token', handle);
}
