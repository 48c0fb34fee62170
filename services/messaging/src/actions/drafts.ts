/** Drafts kept on the server so a user's clients share them (when the user allows it). */
import type { Draft, Tx } from '@chat/db';
import { draftObject } from '@chat/wire';
import { errors, LIMITS } from '@chat/contracts';
import type { LoadedActor } from '../lib/caller';
import type { Services } from '../context';
import { recordEvent } from '@chat/bus';
import { normalizeContent, truncate } from '../lib/text';
import { accessStream } from './streams-access';

export interface DraftInput {
  type: string;
  to: number[];
  topic: string;
  content: string;
  timestamp?: number;
}

function checkSyncEnabled(actor: LoadedActor): void {
  if (actor.settings.enable_drafts_synchronization === false) throw errors.badRequest('User has disabled synchronizing drafts.');
}

/**
 * The columns of a valid draft, or the error the API gives for it. `param` names the draft in
 * errors the way the family's parameter parser does (`drafts[0]`, `draft`). Content is kept as a
 * message's would be; a channel draft's topic is cut to the topic limit but, as in the family,
 * not stripped.
 */
async function checkDraft(tx: Tx, actor: LoadedActor, d: DraftInput, param: string) {
  if (!['', 'stream', 'private'].includes(d.type)) throw errors.badRequest('Invalid draft type');
  if (!d.content.trim()) throw errors.badRequest(`${param}["content"] cannot be blank`);
  const content = normalizeContent(d.content);
  const lastEditTime = d.timestamp !== undefined ? new Date(d.timestamp * 1000) : new Date();
  if (Number.isNaN(lastEditTime.getTime()) || (d.timestamp !== undefined && d.timestamp < 0)) throw errors.badRequest('Timestamp must not be negative.');
  if (d.type === 'stream') {
    const topic = truncate(d.topic, LIMITS.maxTopicLength, '...');
    if (topic.includes('\u0000')) throw errors.badRequest('Topic must not contain null bytes');
    if (d.to.length !== 1) throw errors.badRequest('Must specify exactly 1 channel ID for channel messages');
    await accessStream(tx, actor, d.to[0]);
    return { type: d.type, streamId: d.to[0], toUserIds: [], topic, content, lastEditTime };
  }
  if (d.type === 'private') {
    const ids = [...new Set(d.to)].sort((a, b) => a - b);
    const found = await tx.user.findMany({ where: { id: { in: ids }, realmId: actor.realmId }, select: { id: true } });
    const missing = ids.find((id) => !found.some((u) => u.id === id));
    if (missing !== undefined) throw errors.badRequest(`Invalid user ID ${missing}`);
    return { type: d.type, streamId: null, toUserIds: ids, topic: '', content, lastEditTime };
  }
  return { type: '', streamId: null, toUserIds: [], topic: '', content, lastEditTime };
}

export async function listDrafts(services: Services, actor: LoadedActor) {
  const drafts = await services.db.draft.findMany({ where: { userId: actor.userId }, orderBy: [{ lastEditTime: 'asc' }, { id: 'asc' }] });
  return drafts.map(draftObject);
}

export async function doCreateDrafts(services: Services, actor: LoadedActor, inputs: DraftInput[]): Promise<number[]> {
  checkSyncEnabled(actor);
  return services.db.$transaction(async (tx) => {
    const created: Draft[] = [];
    for (const [i, d] of inputs.entries()) {
      created.push(await tx.draft.create({ data: { realmId: actor.realmId, userId: actor.userId, ...(await checkDraft(tx, actor, d, `drafts[${i}]`)) } }));
    }
    if (created.length) {
      await recordEvent(tx, { realmId: actor.realmId, type: 'drafts', users: [actor.userId], event: { type: 'drafts', op: 'add', drafts: created.map(draftObject) } });
    }
    return created.map((d) => d.id);
  });
}

export async function doEditDraft(services: Services, actor: LoadedActor, draftId: number, input: DraftInput): Promise<void> {
  checkSyncEnabled(actor);
  await services.db.$transaction(async (tx) => {
    const draft = await tx.draft.findFirst({ where: { id: draftId, userId: actor.userId } });
    if (!draft) throw errors.badRequest('Draft does not exist');
    const updated = await tx.draft.update({ where: { id: draftId }, data: await checkDraft(tx, actor, input, 'draft') });
    await recordEvent(tx, { realmId: actor.realmId, type: 'drafts', users: [actor.userId], event: { type: 'drafts', op: 'update', draft: draftObject(updated) } });
  });
}

export async function doDeleteDraft(services: Services, actor: LoadedActor, draftId: number): Promise<void> {
  checkSyncEnabled(actor);
  await services.db.$transaction(async (tx) => {
    const draft = await tx.draft.findFirst({ where: { id: draftId, userId: actor.userId } });
    if (!draft) throw errors.badRequest('Draft does not exist');
    await tx.draft.delete({ where: { id: draftId } });
    await recordEvent(tx, { realmId: actor.realmId, type: 'drafts', users: [actor.userId], event: { type: 'drafts', op: 'remove', draft_id: draftId } });
  });
}
