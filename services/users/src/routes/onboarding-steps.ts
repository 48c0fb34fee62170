import { actorFromIdentity } from '@chat/contracts';
import type { Router } from 'express';
import { endpoint } from '@chat/kit';
import type { Services } from '../context';
import { doMarkOnboardingStep } from '../actions/onboarding-steps';

/** Marking an onboarding step done (/users/me/onboarding_steps). */
export function onboardingStepRoutes(router: Router, services: Services): void {
  router.post(
    '/users/me/onboarding_steps',
    endpoint(async ({ p, identity }) => {
      await doMarkOnboardingStep(services, actorFromIdentity(identity), p.reqStr('onboarding_step'));
    }),
  );
}
