import type { Router } from 'express';
import { endpoint } from '@chat/kit';
import type { Services } from '../context';
import { accessExternalImage } from '../actions/external-content';

/** The image proxy, outside /api/v1, for readers logged in by session or HTTP Basic (docs/uploads.md). */
export function externalContentRoutes(router: Router, services: Services): void {
  router.get(
    /^\/external_content\/([0-9a-f]+)\/([0-9a-f]+)$/,
    endpoint(async ({ req, res }) => {
      const params = req.params as unknown as Record<string, string>;
      const image = await accessExternalImage(services, params[0]!, params[1]!);
      // The bytes are another site's: never sniffed, never a document, cached as an image.
      res
        .status(200)
        .set({
          'Content-Type': image.contentType,
          'Content-Length': String(image.body.length),
          'Content-Security-Policy': "default-src 'none'; sandbox",
          'Cache-Control': 'private, max-age=86400',
        })
        .send(image.body);
    }),
  );
}
