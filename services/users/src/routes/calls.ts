import type { Router } from 'express';
import { actorFromIdentity } from '@chat/contracts';
import { endpoint } from '@chat/kit';
import type { Services } from '../context';
import { checkZoomConfigured, doCreateBigBlueButtonCall, doJoinBigBlueButtonCall } from '../actions/calls';

/** /api/v1/calls/...: creating a call link. */
export function callRoutes(router: Router, services: Services): void {
  router.post(
    '/calls/zoom/create',
    endpoint(async ({ p }) => {
      p.bool('is_video_call', true);
      checkZoomConfigured();
    }),
  );
  router.get(
    '/calls/bigbluebutton/create',
    endpoint(async ({ p, identity }) => ({
      url: doCreateBigBlueButtonCall(services, actorFromIdentity(identity), p.reqStr('meeting_name'), p.bool('voice_only', false)),
    })),
  );
}

/** /calls/... outside the API: the pages a browser opens. */
export function callSiteRoutes(router: Router, services: Services): void {
  // Zoom's OAuth flow: nothing to start or complete without credentials.
  for (const path of ['/calls/zoom/register', '/calls/zoom/complete']) {
    router.get(
      path,
      endpoint(
        async () => {
          checkZoomConfigured();
        },
        { auth: 'optional' },
      ),
    );
  }
  // Zoom calls this when someone removes the app; nothing is kept, so there is nothing to drop.
  router.post(
    '/calls/zoom/deauthorize',
    endpoint(async () => ({}), { auth: 'optional' }),
  );
  router.get(
    '/calls/bigbluebutton/join',
    endpoint(
      async ({ p, identity, res }) => {
        const url = await doJoinBigBlueButtonCall(services, actorFromIdentity(identity), p.reqStr('bigbluebutton'));
        res.redirect(302, url);
      },
      { auth: 'optional' },
    ),
  );
}
