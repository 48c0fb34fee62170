import type { Router } from 'express';
import { errors, actorFromIdentity } from '@chat/contracts';
import { endpoint } from '@chat/kit';
import type { Services } from '../context';
import { checkStatus, doReportPresence, getRealmPresence, getUserPresence } from '../actions/presence';

export function presenceRoutes(router: Router, services: Services): void {
  router.post(
    '/users/me/presence',
    endpoint(async ({ p, identity }) => {
      // Only people report presence; bots have none.
      if (identity.isBot) throw errors.botsNotAllowed();
      const status = checkStatus(p.reqStr('status'));
      const pingOnly = p.bool('ping_only', false);
      p.accept('new_user_input');
      const lastUpdateId = p.int('last_update_id');
      const historyDays = p.int('history_limit_days');
      // Sending last_update_id is how clients ask for the modern protocol.
      const slim = p.bool('slim_presence', false) || lastUpdateId !== undefined;
      const actor = actorFromIdentity(identity);
      await doReportPresence(services, actor, status);
      if (pingOnly) return {};
      return getRealmPresence(services, actor, { slim, lastUpdateId, historyDays });
    }),
  );
  router.get(
    '/users/:user_id_or_email/presence',
    endpoint(async ({ p, identity }) => getUserPresence(services, actorFromIdentity(identity), p.pathStr('user_id_or_email'), p.bool('slim_presence', false))),
  );
  router.get(
    '/realm/presence',
    endpoint(async ({ identity }) => {
      const { presences, server_timestamp } = await getRealmPresence(services, actorFromIdentity(identity), { slim: false });
      return { presences, server_timestamp };
    }),
  );
}
