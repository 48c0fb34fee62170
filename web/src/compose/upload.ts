/**
 * File uploads from the compose box and the message editor: POST /json/user_uploads with an
 * XMLHttpRequest (fetch reports no upload progress), cancellable. While a file uploads its
 * placeholder `[Uploading name…]()` stands in the text; on success it becomes `[name](url)`,
 * the family's format (the server renders images as previews).
 */
import { uploadLink } from './mention';

export interface UploadResult {
  url: string;
  filename: string;
}

export type UploadProblem = { kind: 'disabled' } | { kind: 'too_big'; name: string; maxMib: number };

/** Why a file cannot go up before trying, or null. `maxMib` is the realm's max_file_upload_size_mib. */
export function checkFile(file: { name: string; size: number }, maxMib: number | undefined): UploadProblem | null {
  if (maxMib === 0) return { kind: 'disabled' };
  if (maxMib !== undefined && maxMib > 0 && file.size > maxMib * 1024 * 1024) return { kind: 'too_big', name: file.name, maxMib };
  return null;
}

export function placeholderFor(name: string, n = 0): string {
  return `[Uploading ${name.replace(/[[\]]/g, '')}…${n ? ` (${n})` : ''}]()`;
}

/** A unique placeholder, so two uploads of one name are told apart in the text. */
export function uniquePlaceholder(name: string, text: string): string {
  let n = 0;
  while (text.includes(placeholderFor(name, n))) n++;
  return placeholderFor(name, n);
}

/**
 * Puts `placeholder` at the cursor, apart from the words around it by a space; returns the
 * new text and where the cursor goes.
 */
export function insertPlaceholder(value: string, start: number, end: number, placeholder: string): { value: string; caret: number } {
  const before = value.slice(0, start);
  const after = value.slice(end);
  const lead = before && !/\s$/.test(before) ? ' ' : '';
  const trail = after && !/^\s/.test(after) ? ' ' : '';
  const head = `${before}${lead}${placeholder}${trail}`;
  return { value: head + after, caret: head.length };
}

/** The placeholder replaced by the finished link, or removed (`result` null); appended if the person deleted it. */
export function replacePlaceholder(value: string, placeholder: string, result: UploadResult | null): string {
  if (!value.includes(placeholder)) return result ? `${value}${value && !/\s$/.test(value) ? ' ' : ''}${uploadLink(result.filename, result.url)}` : value;
  return value.replace(placeholder, result ? uploadLink(result.filename, result.url) : '');
}

/** Some pasted blobs come without a name: one is made from the type. */
export function fileName(file: { name: string; type: string }): string {
  if (file.name) return file.name;
  const ext = file.type.split('/')[1]?.replace(/[^a-z0-9]/gi, '') || 'bin';
  return `pasted-file.${ext}`;
}

export interface RunningUpload {
  promise: Promise<UploadResult>;
  cancel(): void;
}

export class UploadError extends Error {
  constructor(
    message: string,
    readonly cancelled = false,
  ) {
    super(message);
  }
}

function csrfToken(): string {
  return document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? '';
}

export function startUpload(file: Blob, name: string, onProgress: (fraction: number) => void): RunningUpload {
  const xhr = new XMLHttpRequest();
  const promise = new Promise<UploadResult>((resolve, reject) => {
    xhr.open('POST', '/json/user_uploads');
    xhr.setRequestHeader('X-CSRFToken', csrfToken());
    xhr.withCredentials = true;
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(xhr.responseText) as Record<string, unknown>;
      } catch {
        // A proxy's error page: no envelope.
      }
      if (xhr.status >= 200 && xhr.status < 300 && body.result !== 'error') {
        const url = String(body.url ?? body.uri ?? '');
        resolve({ url, filename: typeof body.filename === 'string' && body.filename ? body.filename : name });
      } else if (xhr.status === 413) {
        reject(new UploadError('too_big'));
      } else {
        reject(new UploadError(typeof body.msg === 'string' && body.msg ? body.msg : `HTTP ${xhr.status}`));
      }
    };
    xhr.onerror = () => reject(new UploadError('network'));
    xhr.onabort = () => reject(new UploadError('cancelled', true));
    const form = new FormData();
    form.append('file', file, name);
    xhr.send(form);
  });
  return { promise, cancel: () => xhr.abort() };
}
