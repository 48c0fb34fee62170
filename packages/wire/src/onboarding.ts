import type { Db, Tx } from '@chat/db';

type Reader = Db | Tx;

export type OnboardingStepType = 'one_time_notice' | 'one_time_action';

/** An onboarding step as register's `onboarding_steps` and the `onboarding_steps` event carry it. */
export interface OnboardingStepObject {
  type: OnboardingStepType;
  name: string;
}

/**
 * Every onboarding step clients of this API family know, in the order they are offered: the
 * one-time notices (banners and modals the client shows once), then the one-time actions. A
 * client marks one done with POST /users/me/onboarding_steps; only these names are accepted.
 */
export const ONBOARDING_STEPS: readonly OnboardingStepObject[] = [
  ...[
    'visibility_policy_banner',
    'intro_inbox_view_modal',
    'intro_recent_view_modal',
    'first_stream_created_banner',
    'jump_to_conversation_banner',
    'non_interleaved_view_messages_fading',
    'interleaved_view_messages_fading',
    'intro_resolve_topic',
    'navigation_tour_video',
  ].map((name) => ({ type: 'one_time_notice' as const, name })),
  { type: 'one_time_action', name: 'narrow_to_dm_with_welcome_bot_new_user' },
];

/**
 * Steps known (so marking them is accepted) but never offered: this server has no navigation
 * tour video to show, so that notice counts as seen for everyone.
 */
const NEVER_OFFERED = new Set(['navigation_tour_video']);

const KNOWN = new Set(ONBOARDING_STEPS.map((s) => s.name));

export function isOnboardingStep(name: string): boolean {
  return KNOWN.has(name);
}

/** The steps the user has not completed yet, in the list's order: register's section and the event's list. */
export async function onboardingStepsList(db: Reader, userId: number): Promise<OnboardingStepObject[]> {
  const rows = await db.onboardingStep.findMany({ where: { userId }, select: { onboardingStep: true } });
  return onboardingStepsFrom(rows.map((r) => r.onboardingStep));
}

/** onboardingStepsList from the names of the steps the user has completed. */
export function onboardingStepsFrom(completed: string[]): OnboardingStepObject[] {
  const seen = new Set(completed);
  return ONBOARDING_STEPS.filter((s) => !seen.has(s.name) && !NEVER_OFFERED.has(s.name)).map((s) => ({ ...s }));
}
