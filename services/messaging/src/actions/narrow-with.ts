/**
 * The `with` narrow operator of GET /messages: `{"operator": "with", "operand": <message id>}`
 * stands for the conversation that message is in now (its channel and topic, or its direct
 * conversation), so a link to a message keeps working after the message was moved.
 */
import { errors } from '@chat/contracts';
import type { LoadedActor } from '../lib/caller';
import type { Services } from '../context';
import type { NarrowTerm } from '../lib/narrow';
import { accessMessage } from './message-access';

/** Whether the other terms name one conversation on their own (a DM, or a channel and topic). */
function definesConversation(terms: NarrowTerm[]): boolean {
  if (terms.some((t) => t.operator === 'dm')) return true;
  return terms.some((t) => t.operator === 'channel') && terms.some((t) => t.operator === 'topic');
}

export async function resolveWithOperator(services: Services, actor: LoadedActor, narrow: NarrowTerm[]): Promise<NarrowTerm[]> {
  const withTerms = narrow.filter((t) => t.operator === 'with');
  if (withTerms.length > 1) throw errors.badNarrowCombination("Duplicate 'with' operators.");
  if (!withTerms.length) return narrow;
  const rest = narrow.filter((t) => t.operator !== 'with');
  const raw = withTerms[0]!.operand;
  const id = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\s*[+-]?\d+\s*$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id)) throw errors.badNarrowOperator("Invalid 'with' operator");
  let message;
  try {
    ({ message } = await accessMessage(services.db, actor, id));
  } catch {
    // Without access to the message, the other terms must say which conversation is meant.
    if (definesConversation(rest)) return rest;
    throw errors.badNarrowOperator("Invalid 'with' operator");
  }
  const others = rest.filter((t) => !['channel', 'topic', 'dm'].includes(t.operator));
  if (message.streamId !== null) {
    return [
      { operator: 'channel', operand: message.streamId, negated: false },
      { operator: 'topic', operand: message.topic, negated: false },
      ...others,
    ];
  }
  const conversation = message.conversationId === null ? null : await services.db.directConversation.findUnique({ where: { id: message.conversationId } });
  return [{ operator: 'dm', operand: [...(conversation?.memberIds ?? [message.senderId])], negated: false }, ...others];
}
