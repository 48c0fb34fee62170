/** A user's personal settings for one channel (color, muting, notifications). */
import { errors } from '@chat/contracts';
import type { LoadedActor } from '../lib/caller';
import type { Services } from '../context';
import { recordEvent } from '@chat/bus';

const BOOLEAN_PROPERTIES = {
  is_muted: 'isMuted',
  pin_to_top: 'pinToTop',
  desktop_notifications: 'desktopNotifications',
  audible_notifications: 'audibleNotifications',
  push_notifications: 'pushNotifications',
  email_notifications: 'emailNotifications',
  wildcard_mentions_notify: 'wildcardMentionsNotify',
} as const;

export interface PropertyChange {
  stream_id: number;
  property: string;
  value: unknown;
}

function asBoolean(name: string, v: unknown): boolean {
  if (typeof v === 'boolean') return v;
  if (v === 'true' || v === 'false') return v === 'true';
  throw errors.badRequest(`${name} is not a boolean`);
}

/** Column update and the events for one change; `in_home_view` is the legacy inverse of is_muted. */
function interpret(change: PropertyChange): { data: Record<string, unknown>; events: Array<[string, unknown]> } {
  const { property, value } = change;
  if (property === 'color') {
    if (typeof value !== 'string' || !/^#([0-9a-fA-F]{6}|[0-9a-fA-F]{3})$/.test(value)) {
      throw errors.badRequest('color is not a valid hex color code');
    }
    return { data: { color: value.toLowerCase() }, events: [['color', value.toLowerCase()]] };
  }
  if (property === 'in_home_view') {
    const v = asBoolean(property, value);
    return { data: { isMuted: !v }, events: [['in_home_view', v], ['is_muted', !v]] };
  }
  if (property in BOOLEAN_PROPERTIES) {
    const v = asBoolean(property, value);
    const column = BOOLEAN_PROPERTIES[property as keyof typeof BOOLEAN_PROPERTIES];
    const events: Array<[string, unknown]> = [[property, v]];
    if (property === 'is_muted') events.push(['in_home_view', !v]);
    return { data: { [column]: v }, events };
  }
  throw errors.badRequest(`Unknown subscription property: ${property}`);
}

export async function doUpdateSubscriptionProperties(services: Services, actor: LoadedActor, changes: PropertyChange[]): Promise<void> {
  await services.db.$transaction(async (tx) => {
    for (const change of changes) {
      const stream = await tx.stream.findFirst({ where: { id: change.stream_id, realmId: actor.realmId } });
      if (!stream) throw errors.invalidStreamId();
      const sub = await tx.subscription.findUnique({ where: { userId_streamId: { userId: actor.userId, streamId: stream.id } } });
      if (!sub?.active) throw errors.badRequest(`Not subscribed to channel ID ${stream.id}`);
      const { data, events } = interpret(change);
      await tx.subscription.update({ where: { id: sub.id }, data });
      for (const [property, value] of events) {
        await recordEvent(tx, {
          realmId: actor.realmId,
          type: 'subscription',
          users: [actor.userId],
          event: { type: 'subscription', op: 'update', stream_id: stream.id, property, value },
        });
      }
    }
  });
}
