import type { Router } from 'express';
import { endpoint } from '@chat/kit';
import { loadActor } from '../lib/caller';
import type { Services } from '../context';
import { doReportMessage } from '../actions/report';
import { doAddSubmessage } from '../actions/submessages';

/** Reporting a message to moderators, and submessages (widget state). */
export function messageExtraRoutes(router: Router, services: Services): void {
  router.post(
    '/messages/:message_id/report',
    endpoint(async (ctx) => {
      const { p } = ctx;
      const actor = await loadActor(services.db, ctx.identity);
      await doReportMessage(services, actor, p.pathInt('message_id'), p.reqStr('report_type'), p.str('description') ?? '');
    }),
  );

  router.post(
    '/submessage',
    endpoint(async (ctx) => {
      const { p } = ctx;
      const actor = await loadActor(services.db, ctx.identity);
      await doAddSubmessage(services, actor, { messageId: p.reqInt('message_id'), msgType: p.reqStr('msg_type'), content: p.reqStr('content') });
    }),
  );
}
