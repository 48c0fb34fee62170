/** Creating channels. Subscribing users to them lives in subscriptions.ts. */
import type { Stream, Tx } from '@chat/db';
import { errors, LIMITS } from '@chat/contracts';
import type { LoadedActor } from '../lib/context';
import { recordEvent } from '../lib/outbox';
import { renderMarkdown, emptyRenderContext } from '../markdown';
import { streamDict, streamViewerIds } from './stream-dicts';

export interface NewStream {
  name: string;
  description?: string;
  inviteOnly?: boolean;
  historyPublicToSubscribers?: boolean;
  isWebPublic?: boolean;
  topicsPolicy?: string;
  messageRetentionDays?: number | null;
  folderId?: number | null;
  canAddSubscribersGroup?: unknown;
  canRemoveSubscribersGroup?: unknown;
  canSendMessageGroup?: unknown;
}

export function checkStreamName(raw: string): string {
  const name = raw.trim();
  if (!name) throw errors.badRequest("Channel name can't be empty.");
  if ([...name].length > LIMITS.maxStreamNameLength) {
    throw errors.badRequest(`Channel name too long (limit: ${LIMITS.maxStreamNameLength} characters).`);
  }
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f]/.test(name)) throw errors.badRequest('Invalid character in channel name.');
  return name;
}

/** Creates one channel and tells everyone who may see it (`subscriberIds`: about to join). */
export async function doCreateStream(tx: Tx, actor: LoadedActor, spec: NewStream, subscriberIds: number[] = []): Promise<Stream> {
  const name = checkStreamName(spec.name);
  const description = (spec.description ?? '').replace(/\n/g, ' ');
  if ([...description].length > LIMITS.maxStreamDescriptionLength) {
    throw errors.badRequest(`Channel description too long (limit: ${LIMITS.maxStreamDescriptionLength} characters).`);
  }
  const inviteOnly = spec.inviteOnly ?? false;
  // History of a public channel is always readable; only private ones may hide it.
  const historyPublic = inviteOnly ? (spec.historyPublicToSubscribers ?? false) : true;
  const stream = await tx.stream.create({
    data: {
      realmId: actor.realmId,
      name,
      nameKey: name.toLowerCase(),
      description,
      renderedDescription: description ? renderMarkdown(description, emptyRenderContext(actor.realmUrl)).html : '',
      creatorId: actor.userId,
      inviteOnly,
      isWebPublic: spec.isWebPublic ?? false,
      historyPublicToSubscribers: historyPublic,
      topicsPolicy: spec.topicsPolicy ?? 'inherit',
      messageRetentionDays: spec.messageRetentionDays ?? null,
      folderId: spec.folderId ?? null,
      canAddSubscribersGroup: (spec.canAddSubscribersGroup ?? undefined) as never,
      canRemoveSubscribersGroup: (spec.canRemoveSubscribersGroup ?? undefined) as never,
      canSendMessageGroup: (spec.canSendMessageGroup ?? undefined) as never,
    },
  });
  const viewers = await streamViewerIds(tx, stream, subscriberIds);
  if (viewers.length) {
    await recordEvent(tx, {
      realmId: actor.realmId,
      type: 'stream',
      users: viewers,
      event: { type: 'stream', op: 'create', streams: [await streamDict(tx, stream)] },
    });
  }
  return stream;
}
