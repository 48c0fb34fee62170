import type { Router } from 'express';
import { endpoint } from '@chat/kit';
import { errors } from '@chat/contracts';
import { loadActor } from '../lib/caller';
import type { Services } from '../context';
import { clientName } from './messages';
import {
  checkScheduleMessage, doDeleteScheduledMessage, doEditScheduledMessage, doScheduleMessage, listScheduledMessages,
} from '../actions/scheduled-messages';
import { checkCreateReminder, doCreateReminder, doDeleteReminder, listReminders } from '../actions/reminders';

/** Scheduled messages (send later) and message reminders. */
export function scheduledRoutes(router: Router, services: Services): void {
  router.get('/scheduled_messages', endpoint(async (ctx) => ({
    scheduled_messages: await listScheduledMessages(services, await loadActor(services.db, ctx.identity)),
  })));

  router.post('/scheduled_messages', endpoint(async (ctx) => {
    const { p } = ctx;
    const actor = await loadActor(services.db, ctx.identity);
    const data = await checkScheduleMessage(services, actor, {
      type: p.reqStr('type'),
      to: p.raw('to') ?? (() => { throw errors.missingArgument('to'); })(),
      content: p.reqStr('content'),
      topic: p.str('topic') ?? p.str('subject'),
      deliverAt: p.reqInt('scheduled_delivery_timestamp'),
      readBySender: p.bool('read_by_sender'),
      client: clientName(ctx),
    });
    return { scheduled_message_id: await doScheduleMessage(services, actor, data) };
  }));

  router.patch('/scheduled_messages/:scheduled_message_id', endpoint(async (ctx) => {
    const { p } = ctx;
    const id = p.pathInt('scheduled_message_id');
    await doEditScheduledMessage(services, await loadActor(services.db, ctx.identity), id, {
      type: p.str('type'),
      to: p.raw('to'),
      topic: p.str('topic') ?? p.str('subject'),
      content: p.str('content'),
      deliverAt: p.int('scheduled_delivery_timestamp'),
      client: clientName(ctx),
    });
  }));

  router.delete('/scheduled_messages/:scheduled_message_id', endpoint(async (ctx) => {
    await doDeleteScheduledMessage(services, await loadActor(services.db, ctx.identity), ctx.p.pathInt('scheduled_message_id'));
  }));

  router.get('/reminders', endpoint(async (ctx) => ({
    reminders: await listReminders(services, await loadActor(services.db, ctx.identity)),
  })));

  router.post('/reminders', endpoint(async (ctx) => {
    const { p } = ctx;
    const actor = await loadActor(services.db, ctx.identity);
    const data = await checkCreateReminder(services, actor, {
      messageId: p.reqInt('message_id'),
      deliverAt: p.reqInt('scheduled_delivery_timestamp'),
      note: p.str('note'),
      client: clientName(ctx),
    });
    return { reminder_id: await doCreateReminder(services, actor, data) };
  }));

  router.delete('/reminders/:reminder_id', endpoint(async (ctx) => {
    await doDeleteReminder(services, await loadActor(services.db, ctx.identity), ctx.p.pathInt('reminder_id'));
  }));
}
