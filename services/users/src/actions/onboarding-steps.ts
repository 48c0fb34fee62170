import { recordEvent } from '@chat/bus';
import { errors, type Actor } from '@chat/contracts';
import { isOnboardingStep, onboardingStepsList } from '@chat/wire';
import type { Services } from '../context';

/** Onboarding steps are hints in a person's client; bots have none to complete. */
export function checkMarkOnboardingStep(actor: Actor, step: string): void {
  if (actor.isBot) throw errors.botsNotAllowed();
  if (!isOnboardingStep(step)) throw errors.unknownOnboardingStep(step);
}

/**
 * POST /users/me/onboarding_steps: records the step as done (again is harmless) and tells the
 * user's clients the steps still to show, so every open client drops the notice at once.
 */
export async function doMarkOnboardingStep(services: Services, actor: Actor, step: string): Promise<void> {
  checkMarkOnboardingStep(actor, step);
  await services.db.$transaction(async (tx) => {
    // ON CONFLICT: marking twice, or two clients racing, keeps the first completion time.
    await tx.$executeRawUnsafe(
      `INSERT INTO onboarding_steps (realm_id, user_id, onboarding_step) VALUES ($1, $2, $3)
       ON CONFLICT (user_id, onboarding_step) DO NOTHING`,
      actor.realmId,
      actor.userId,
      step,
    );
    await recordEvent(tx, {
      realmId: actor.realmId,
      type: 'onboarding_steps',
      users: [actor.userId],
      event: { type: 'onboarding_steps', onboarding_steps: await onboardingStepsList(tx, actor.userId) },
    });
  });
}
