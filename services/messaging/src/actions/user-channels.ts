/** GET /users/{user_id}/channels: the channels someone is subscribed to, as far as the caller may see them. */
import { errors } from '@chat/contracts';
import { canAccessUser } from '@chat/realm';
import type { LoadedActor } from '../lib/caller';
import type { Services } from '../context';
import { streamAccessOf } from './streams-access';

export async function accessUserChannels(services: Services, actor: LoadedActor, userId: number): Promise<number[]> {
  const user = await services.db.user.findFirst({ where: { id: userId, realmId: actor.realmId } });
  if (!user) throw errors.badRequest('No such user');
  // A guest restricted to the people they share conversations with learns nothing of others.
  if (!(await canAccessUser(services.db, actor.realmId, { id: actor.userId, role: actor.role }, user))) throw errors.insufficientPermission();
  const subs = await services.db.subscription.findMany({ where: { userId, active: true }, include: { stream: true }, orderBy: { streamId: 'asc' } });
  const own = await services.db.subscription.findMany({
    where: { userId: actor.userId, active: true, streamId: { in: subs.map((s) => s.streamId) } },
  });
  const mine = new Map(own.map((s) => [s.streamId, s]));
  // Only channels whose existence the caller may know of (metadata access).
  return subs.filter((s) => streamAccessOf(actor, s.stream, mine.get(s.streamId) ?? null).canSee).map((s) => s.streamId);
}
