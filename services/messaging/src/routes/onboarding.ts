import type { Router } from 'express';
import { endpoint } from '@chat/kit';
import { loadActor } from '../lib/caller';
import type { Services } from '../context';
import { doSendTestWelcomeMessage } from '../actions/onboarding';

/**
 * Under /realm, but owned here (see API_ROUTES): it sends a Welcome Bot message, which is this
 * service's work, and answers the message's id.
 */
export function onboardingRoutes(router: Router, services: Services): void {
  router.post(
    '/realm/test_welcome_bot_custom_message',
    endpoint(async ({ p, identity }) => {
      const actor = await loadActor(services.db, identity);
      return { message_id: await doSendTestWelcomeMessage(services, actor, p.reqStr('welcome_message_custom_text')) };
    }),
  );
}
