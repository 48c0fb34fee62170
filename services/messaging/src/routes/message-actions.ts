import type { Router } from 'express';
import { z } from 'zod';
import { endpoint } from '@chat/kit';
import { errors } from '@chat/contracts';
import { loadActor } from '../lib/caller';
import type { Services } from '../context';
import { checkEditMessage, doEditMessage } from '../actions/edit';
import { doDeleteMessage, messageHistory } from '../actions/delete';
import { checkEditableFlag, doMarkAsRead, doUpdateFlags } from '../actions/flags';
import { doAddReaction, doRemoveReaction } from '../actions/reactions';
import { doTypingEditMessage } from '../actions/typing';
import { fetchMessagesById } from '../actions/fetch';
import { readReceipts } from '../actions/read-receipts';
import { loadRenderContext, renderMarkdown } from '../markdown';

export function messageActionRoutes(router: Router, services: Services): void {
  router.get(
    '/messages/:message_id',
    endpoint(async (ctx) => {
      const actor = await loadActor(services.db, ctx.identity);
      const applyMarkdown = ctx.p.bool('apply_markdown', true);
      const { messages } = await fetchMessagesById(services, actor, [ctx.p.pathInt('message_id')], {
        narrow: [],
        applyMarkdown,
        clientGravatar: true,
        allowEmptyTopicName: ctx.p.bool('allow_empty_topic_name', false),
      });
      if (!messages.length) throw errors.invalidMessage();
      const raw = await services.db.message.findUniqueOrThrow({ where: { id: messages[0].id }, select: { content: true } });
      return { raw_content: raw.content, message: messages[0] };
    }),
  );

  router.patch(
    '/messages/:message_id',
    endpoint(async (ctx) => {
      const { p } = ctx;
      const actor = await loadActor(services.db, ctx.identity);
      p.accept('prev_content_sha256');
      const plan = await checkEditMessage(services.db, actor, p.pathInt('message_id'), {
        content: p.strNulChecked('content'),
        topic: p.strNulChecked('topic') ?? p.strNulChecked('subject'),
        streamId: p.int('stream_id'),
        propagateMode: p.str('propagate_mode') ?? 'change_one',
        notifyOldThread: p.bool('send_notification_to_old_thread'),
        notifyNewThread: p.bool('send_notification_to_new_thread'),
      });
      await doEditMessage(services, actor, plan);
    }),
  );

  router.delete(
    '/messages/:message_id',
    endpoint(async (ctx) => {
      await doDeleteMessage(services, await loadActor(services.db, ctx.identity), ctx.p.pathInt('message_id'));
    }),
  );

  router.get(
    '/messages/:message_id/history',
    endpoint(async (ctx) => ({
      message_history: await messageHistory(services, await loadActor(services.db, ctx.identity), ctx.p.pathInt('message_id'), ctx.p.bool('allow_empty_topic_name', false)),
    })),
  );

  router.get(
    '/messages/:message_id/read_receipts',
    endpoint(async (ctx) => ({ user_ids: await readReceipts(services, await loadActor(services.db, ctx.identity), ctx.p.pathInt('message_id')) })),
  );

  router.post(
    '/messages/flags',
    endpoint(async (ctx) => {
      const { p } = ctx;
      const actor = await loadActor(services.db, ctx.identity);
      const ids = p.reqJson('messages', z.array(z.number().int()));
      const op = p.reqStr('op');
      if (op !== 'add' && op !== 'remove') throw errors.badRequest(`Invalid message flag operation: '${op}'`);
      const flag = checkEditableFlag(p.reqStr('flag'));
      return { messages: await doUpdateFlags(services, actor, ids, op, flag) };
    }),
  );

  router.post(
    '/messages/render',
    endpoint(async (ctx) => {
      const actor = await loadActor(services.db, ctx.identity);
      const content = ctx.p.reqStr('content');
      if (!content.trim()) throw errors.badRequest('Message must not be empty');
      return { rendered: renderMarkdown(content, await loadRenderContext(services.db, actor.realmId, actor.realmUrl, content, actor.userId)).html };
    }),
  );

  router.post(
    '/mark_all_as_read',
    endpoint(async (ctx) => {
      await doMarkAsRead(services, await loadActor(services.db, ctx.identity), {});
      return { complete: true };
    }),
  );
  router.post(
    '/mark_stream_as_read',
    endpoint(async (ctx) => {
      await doMarkAsRead(services, await loadActor(services.db, ctx.identity), { streamId: ctx.p.reqInt('stream_id') });
    }),
  );
  router.post(
    '/mark_topic_as_read',
    endpoint(async (ctx) => {
      await doMarkAsRead(services, await loadActor(services.db, ctx.identity), { streamId: ctx.p.reqInt('stream_id'), topic: ctx.p.reqStr('topic_name') });
    }),
  );

  const emoji = (ctx: Parameters<Parameters<typeof endpoint>[0]>[0]) => ({
    emojiName: ctx.p.str('emoji_name'),
    emojiCode: ctx.p.str('emoji_code'),
    reactionType: ctx.p.str('reaction_type'),
  });
  router.post(
    '/messages/:message_id/reactions',
    endpoint(async (ctx) => {
      await doAddReaction(services, await loadActor(services.db, ctx.identity), ctx.p.pathInt('message_id'), emoji(ctx));
    }),
  );
  router.delete(
    '/messages/:message_id/reactions',
    endpoint(async (ctx) => {
      await doRemoveReaction(services, await loadActor(services.db, ctx.identity), ctx.p.pathInt('message_id'), emoji(ctx));
    }),
  );

  router.post(
    '/messages/:message_id/typing',
    endpoint(async (ctx) => {
      await doTypingEditMessage(services, await loadActor(services.db, ctx.identity), ctx.p.pathInt('message_id'), ctx.p.reqStr('op'));
    }),
  );
  // Before feature level 361 the message id travelled in the body.
  router.post(
    '/message_edit_typing',
    endpoint(async (ctx) => {
      await doTypingEditMessage(services, await loadActor(services.db, ctx.identity), ctx.p.reqInt('message_id'), ctx.p.reqStr('op'));
    }),
  );
}
