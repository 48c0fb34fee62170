/**
 * POST /channels/create: one channel, created and subscribed in one transaction through the same
 * actions as the create-by-subscribe path (name check, creation permissions, doCreateStream,
 * default channels, doSubscribeUsers), but naming subscribers by id and refusing a taken name.
 */
import { errors, isGuest } from '@chat/contracts';
import type { LoadedActor } from '../lib/caller';
import type { Services } from '../context';
import { checkStreamName, doCreateStream, type NewStream } from './streams';
import { checkCanCreateStream, resolvePrincipals } from './subscribe';
import { doSubscribeUsers } from './subscriptions';
import { addDefaultStream } from './default-streams';
import { announceNewChannels } from './channel-announce';

export interface CreateChannelRequest {
  name: string;
  subscribers: number[];
  isDefaultStream: boolean;
  /** Tell the new-channel announcements channel. */
  announce: boolean;
  settings: Omit<NewStream, 'name'>;
}

export async function doCreateChannel(services: Services, actor: LoadedActor, req: CreateChannelRequest): Promise<{ id: number }> {
  if (isGuest(actor)) throw errors.badRequest('Not allowed for guest users');
  const name = checkStreamName(req.name);
  if (req.isDefaultStream && req.settings.inviteOnly) throw errors.badRequest('A default channel cannot be private.');
  try {
    return await createInTx(services, actor, req, name);
  } catch (err) {
    // Two requests racing for one name: the unique index decides, as the lookup would have.
    if ((err as { code?: string }).code === 'P2002') throw errors.channelAlreadyExists(name);
    throw err;
  }
}

function createInTx(services: Services, actor: LoadedActor, req: CreateChannelRequest, name: string): Promise<{ id: number }> {
  return services.db.$transaction(async (tx) => {
    const taken = await tx.stream.findFirst({ where: { realmId: actor.realmId, nameKey: name.toLowerCase() }, select: { name: true } });
    if (taken) throw errors.channelAlreadyExists(name);
    await checkCanCreateStream(tx, actor, { ...req.settings, isDefaultStream: req.isDefaultStream });
    const subscribers = await resolvePrincipals(tx, actor, [...new Set(req.subscribers)]);
    const stream = await doCreateStream(tx, actor, { ...req.settings, name }, subscribers.map((u) => u.id));
    if (req.isDefaultStream) await addDefaultStream(tx, stream);
    if (subscribers.length) await doSubscribeUsers(tx, actor, stream, subscribers.map((u) => u.id), services.db);
    // As the family's server does, the announcement goes out only when someone was subscribed.
    if (req.announce && subscribers.length) await announceNewChannels(tx, actor, [stream]);
    return { id: stream.id };
  });
}
