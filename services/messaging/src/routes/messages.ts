import type { Router } from 'express';
import { z } from 'zod';
import { endpoint, type AuthedCtx } from '@chat/kit';
import { errors } from '@chat/contracts';
import { loadActor, refusedAfterCaller } from '../lib/caller';
import type { Services } from '../context';
import { narrowSchema, normalizeNarrow } from '../lib/narrow';
import { resolveWithOperator } from '../actions/narrow-with';
import { checkSendMessage, doSendMessage, loadSender, requestCaller } from '../actions/send';
import { fetchMessageRange, fetchMessagesById, LARGER_THAN_MAX_MESSAGE_ID, matchesNarrow, selectMessageRange, type Anchor } from '../actions/fetch';
import { checkEditableFlag, doUpdateFlags } from '../actions/flags';
import { loadReader } from '../actions/fetch-wire';

/** Name of the sending client: the `client` parameter, else the User-Agent's product name. */
export function clientName(ctx: AuthedCtx): string {
  const explicit = ctx.p.str('client');
  if (explicit) return explicit.slice(0, 30);
  const ua = ctx.req.header('user-agent') ?? '';
  const product = /^([^/\s]+)/.exec(ua)?.[1];
  return product ? product.slice(0, 30) : 'API';
}

function parseAnchor(raw: string, anchorDate: string | undefined): Anchor {
  if (/^-?\d+$/.test(raw)) return { kind: 'id', id: Math.min(Math.max(0, Number(raw)), LARGER_THAN_MAX_MESSAGE_ID) };
  if (raw === 'newest' || raw === 'oldest' || raw === 'first_unread') return { kind: raw };
  if (raw === 'date') {
    if (!anchorDate) throw errors.missingArgument('anchor_date');
    const iso = /^\d{4}-\d{2}-\d{2}$/.test(anchorDate) ? `${anchorDate}T00:00:00Z` : anchorDate;
    const hasZone = /(Z|[+-]\d{2}:?\d{2})$/i.test(iso);
    const date = new Date(hasZone ? iso : `${iso}Z`);
    if (Number.isNaN(date.getTime())) throw errors.invalidArgument('anchor_date', 'Invalid anchor_date');
    return { kind: 'date', date };
  }
  throw errors.badRequest('Invalid anchor');
}

export function messageRoutes(router: Router, services: Services): void {
  router.post(
    '/messages',
    endpoint(async (ctx) => {
      const { p } = ctx;
      // The caller's row is read with the channel (checkSendMessage); a caller who may not act is
      // still refused before any parameter is.
      const caller = requestCaller(ctx.identity);
      const input = await refusedAfterCaller(() => loadSender(services.db, caller), () => {
        const topic = p.strNulChecked('topic');
        const subject = p.strNulChecked('subject');
        return {
          type: p.reqStr('type'),
          to: p.raw('to') ?? (() => { throw errors.missingArgument('to'); })(),
          // Content and topic: the action refuses NUL characters in the family's words.
          content: p.reqStrNulChecked('content'),
          topic: topic ?? subject,
          queueId: p.str('queue_id'),
          localId: p.str('local_id'),
          readBySender: p.bool('read_by_sender'),
          client: clientName(ctx),
          idempotencyKey: ctx.req.header('idempotency-key'),
        };
      });
      const plan = await checkSendMessage(services, caller, input);
      return { ...(await doSendMessage(services, plan)) };
    }),
  );

  router.get(
    '/messages',
    endpoint(async (ctx) => {
      const { p } = ctx;
      const actor = await loadReader(services.db, ctx.identity);
      const opts = {
        narrow: await resolveWithOperator(services, actor, normalizeNarrow(p.json('narrow', narrowSchema) ?? [])),
        applyMarkdown: p.bool('apply_markdown', true),
        clientGravatar: p.bool('client_gravatar', true),
        allowEmptyTopicName: p.bool('allow_empty_topic_name', false),
      };
      const messageIds = p.json('message_ids', z.array(z.number().int().nonnegative()));
      const numBefore = p.int('num_before') ?? 0;
      const numAfter = p.int('num_after') ?? 0;
      const useFirstUnread = p.bool('use_first_unread_anchor', false);
      const rawAnchor = p.str('anchor');
      const includeAnchor = p.bool('include_anchor', true);
      if (numBefore < 0 || numAfter < 0) throw errors.badRequest(`${numBefore < 0 ? 'num_before' : 'num_after'} is too small`);
      if (messageIds !== undefined) {
        if (numBefore || numAfter || rawAnchor !== undefined || useFirstUnread) {
          throw errors.incompatibleParameters(['num_before', 'num_after', 'anchor', 'message_ids', 'include_anchor', 'use_first_unread_anchor']);
        }
        return fetchMessagesById(services, actor, messageIds, opts);
      }
      if (rawAnchor === undefined && !useFirstUnread) throw errors.badRequest("Missing 'anchor' argument.");
      const anchor = useFirstUnread ? ({ kind: 'first_unread' } as const) : parseAnchor(rawAnchor!, p.str('anchor_date'));
      if (numBefore > 0 && numAfter > 0 && !includeAnchor) throw errors.badRequest('The anchor can only be excluded at an end of the range');
      return fetchMessageRange(services, actor, { ...opts, anchor, includeAnchor, numBefore, numAfter });
    }),
  );

  router.get(
    '/messages/matches_narrow',
    endpoint(async (ctx) => {
      const actor = await loadActor(services.db, ctx.identity);
      const ids = ctx.p.reqJson('msg_ids', z.array(z.number().int()));
      const narrow = normalizeNarrow(ctx.p.reqJson('narrow', narrowSchema));
      return { messages: await matchesNarrow(services, actor, ids, narrow) };
    }),
  );

  router.post(
    '/messages/flags/narrow',
    endpoint(async (ctx) => {
      const { p } = ctx;
      const actor = await loadActor(services.db, ctx.identity);
      const op = p.reqStr('op');
      if (op !== 'add' && op !== 'remove') throw errors.badRequest(`Invalid message flag operation: '${op}'`);
      const flag = checkEditableFlag(p.reqStr('flag'));
      const range = await selectMessageRange(services, actor, {
        narrow: normalizeNarrow(p.json('narrow', narrowSchema) ?? []),
        anchor: parseAnchor(p.reqStr('anchor'), p.str('anchor_date')),
        includeAnchor: p.bool('include_anchor', true),
        numBefore: p.reqInt('num_before'),
        numAfter: p.reqInt('num_after'),
      });
      const ids = range.rows.map((r) => r.id);
      const updated = ids.length ? await doUpdateFlags(services, actor, ids, op, flag) : [];
      return {
        processed_count: ids.length,
        updated_count: updated.length,
        first_processed_id: ids[0] ?? null,
        last_processed_id: ids.at(-1) ?? null,
        found_oldest: range.foundOldest,
        found_newest: range.foundNewest,
      };
    }),
  );
}
