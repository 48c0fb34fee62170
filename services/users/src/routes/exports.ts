import path from 'node:path';
import type { Router } from 'express';
import { errors, actorFromIdentity } from '@chat/contracts';
import { endpoint } from '@chat/kit';
import type { Services } from '../context';
import { accessExportConsents, accessExportFile, accessExports, doDeleteExport, doRequestExport } from '../actions/exports';

export function exportRoutes(router: Router, services: Services): void {
  router.post(
    '/export/realm',
    endpoint(async ({ p, identity }) => ({ id: await doRequestExport(services, actorFromIdentity(identity), () => p.int('export_type')) })),
  );
  router.get('/export/realm', endpoint(async ({ identity }) => ({ exports: await accessExports(services, actorFromIdentity(identity)) })));
  router.get(
    '/export/realm/consents',
    endpoint(async ({ identity }) => ({ export_consents: await accessExportConsents(services, actorFromIdentity(identity)) })),
  );
  router.delete(
    '/export/realm/:export_id',
    endpoint(async ({ p, identity }) => {
      await doDeleteExport(services, actorFromIdentity(identity), p.pathInt('export_id'));
    }),
  );
}

/**
 * Finished exports, at the address export_url gives. As on the family's server the address
 * itself is the secret (it holds a random part), so downloads need no login.
 */
export function exportFileRoutes(router: Router, services: Services): void {
  router.get(
    '/user_avatars/exports/:realm_id/:token/:file',
    endpoint(
      async ({ p, identity, res }) => {
        const relative = path.posix.join('exports', p.pathStr('realm_id'), p.pathStr('token'), p.pathStr('file'));
        const found = String(identity.realmId) === p.pathStr('realm_id') ? await accessExportFile(services, identity.realmId, relative) : null;
        if (!found || !(await services.exportStore.send(found, res))) throw errors.notFound();
      },
      { auth: 'optional' },
    ),
  );
}
