import type { Router } from 'express';
import { endpoint } from '@chat/kit';
import { loadActor, type Deps } from '../lib/context';
import { doSendTestWelcomeMessage } from '../actions/onboarding';

/**
 * Under /realm, but owned here (see API_ROUTES): it sends a Welcome Bot message, which is this
 * service's work, and answers the message's id.
 */
export function onboardingRoutes(router: Router, deps: Deps): void {
  router.post(
    '/realm/test_welcome_bot_custom_message',
    endpoint(async ({ p, identity }) => {
      const actor = await loadActor(deps.db, identity);
      return { message_id: await doSendTestWelcomeMessage(deps, actor, p.reqStr('welcome_message_custom_text')) };
    }),
  );
}
