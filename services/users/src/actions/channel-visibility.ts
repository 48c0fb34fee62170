import { recordEvent } from '@chat/bus';
import { isAdmin, isMember } from '@chat/contracts';
import type { Stream, Tx } from '@chat/db';
import { loadStreamFacts, streamObject } from '@chat/wire';

/**
 * Whether a person of `role` may see that a channel exists, as the messaging service decides it
 * for its stream events: subscribers always; everyone but guests for a public channel;
 * administrators for a private one.
 */
function maySee(stream: Stream, role: number, subscribed: boolean): boolean {
  if (subscribed) return true;
  return stream.inviteOnly ? isAdmin({ role }) : isMember({ role });
}

async function streamObjects(tx: Tx, streams: Stream[]) {
  const facts = await loadStreamFacts(tx, streams);
  return streams.map((s) => streamObject(s, facts.get(s.id)!));
}

/**
 * A role change can show or hide channels: a new administrator sees every private channel, a
 * new guest no longer sees the public ones it is not subscribed to. The person gets `stream`
 * `create` for the channels it now sees and `delete` for those it no longer does, so that its
 * clients' channel lists stay right. Archived channels are left out.
 */
export async function announceChannelsForRole(tx: Tx, target: { id: number; realmId: number }, oldRole: number, newRole: number) {
  if (oldRole === newRole) return;
  const [streams, subs] = await Promise.all([
    tx.stream.findMany({ where: { realmId: target.realmId, isArchived: false }, orderBy: { id: 'asc' } }),
    tx.subscription.findMany({ where: { userId: target.id, active: true }, select: { streamId: true } }),
  ]);
  const subscribed = new Set(subs.map((s) => s.streamId));
  const gained = streams.filter((s) => !maySee(s, oldRole, subscribed.has(s.id)) && maySee(s, newRole, subscribed.has(s.id)));
  const lost = streams.filter((s) => maySee(s, oldRole, subscribed.has(s.id)) && !maySee(s, newRole, subscribed.has(s.id)));
  if (gained.length) {
    await recordEvent(tx, {
      realmId: target.realmId,
      type: 'stream',
      users: [target.id],
      event: { type: 'stream', op: 'create', streams: await streamObjects(tx, gained) },
    });
  }
  if (lost.length) {
    await recordEvent(tx, {
      realmId: target.realmId,
      type: 'stream',
      users: [target.id],
      event: { type: 'stream', op: 'delete', streams: lost.map((s) => ({ stream_id: s.id })), stream_ids: lost.map((s) => s.id) },
    });
  }
}
