/**
 * Stores a file through the uploads service's own `POST /user_uploads`, as `identity` (signed
 * with the cluster's internal secret, as the gateway signs a request's): quota, size limit and
 * the attachment row are the uploads service's rules, not copied here.
 */
import { IDENTITY_HEADER, type Identity } from '@chat/contracts';
import { signIdentity } from '@chat/kit';

export class UploadRefused extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export async function uploadFile(
  target: { uploadsUrl: string; internalSecret: string; timeoutMs?: number },
  identity: Identity,
  file: { filename: string; contentType: string; content: Buffer },
): Promise<{ url: string; filename: string }> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(file.content)], { type: file.contentType }), file.filename);
  const res = await fetch(new URL('/api/v1/user_uploads', target.uploadsUrl), {
    method: 'POST',
    headers: { [IDENTITY_HEADER]: signIdentity(target.internalSecret, identity) },
    body: form,
    signal: AbortSignal.timeout(target.timeoutMs ?? 30_000),
  });
  const body = (await res.json().catch(() => ({}))) as { result?: string; msg?: string; url?: string; filename?: string };
  if (!res.ok || body.result !== 'success' || typeof body.url !== 'string') {
    throw new UploadRefused(res.status, body.msg ?? `uploads answered ${res.status}`);
  }
  return { url: body.url, filename: body.filename ?? file.filename };
}
