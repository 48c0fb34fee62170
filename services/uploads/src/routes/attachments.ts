import type { Router } from 'express';
import { actorFromIdentity } from '@chat/contracts';
import { endpoint } from '@chat/kit';
import type { Services } from '../context';
import { doDeleteAttachment, listAttachments } from '../actions/attachments';

export function attachmentRoutes(router: Router, services: Services): void {
  router.get(
    '/attachments',
    endpoint(({ identity }) => listAttachments(services, actorFromIdentity(identity))),
  );

  router.delete(
    '/attachments/:attachment_id',
    endpoint(async ({ p, identity }) => {
      await doDeleteAttachment(services, actorFromIdentity(identity), p.pathInt('attachment_id'));
    }),
  );
}
