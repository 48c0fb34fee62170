import type { IncomingMessage } from 'node:http';

/**
 * A browser that opens a file (an upload, a thumbnail, an avatar) with no login, where a service
 * refuses it for want of one (401), is sent to the login page with `next`, as the family's
 * server does, instead of being shown the API's error envelope. API clients present HTTP Basic
 * and never get here: their 401 stays as it is.
 *
 * The family's two rules, each kept as it is:
 * - uploads and thumbnails (`serve_file`, which calls `zulip_redirect_to_login`): any request
 *   that does not prefer `image/png` to `text/html` (by Accept, as Django's `get_preferred_type`
 *   ranks them; no Accept header prefers neither, so it is redirected), with `next` the full
 *   path and query, quoted with `/` left bare (Django's `redirect_to_login`). An `<img>`'s
 *   request prefers the image: there the family answers 403 with a picture; here the 401 stays.
 * - avatars (the `MissingAuthenticationError` middleware): only a request whose Accept names
 *   `text/html`, with `next` the path alone, form-encoded (`urlencode`).
 * The answer depends on Accept either way, so it says so (`Vary: Accept`).
 */
export interface LoginRedirect {
  /** Where to send the browser, or null to keep the service's 401. */
  location: string | null;
}

const LOGIN_PATH = '/login/';

/**
 * What a file request without a login (no session, no Authorization header) gets if its
 * service answers 401; undefined where the family does not redirect (other paths or methods).
 * `url`: the path and query as the request arrived.
 */
export function fileLoginRedirect(req: IncomingMessage, url: string): LoginRedirect | undefined {
  if (req.method !== 'GET' && req.method !== 'HEAD') return undefined;
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const accept = req.headers.accept;
  if (path.startsWith('/user_uploads/')) {
    return { location: prefersImage(accept) ? null : `${LOGIN_PATH}?next=${quote(url, '/')}` };
  }
  if (path.startsWith('/avatar/')) {
    const decoded = decodedPath(path);
    return { location: accept?.includes('text/html') && decoded !== null ? `${LOGIN_PATH}?next=${quote(decoded, ' ').replace(/ /g, '+')}` : null };
  }
  return undefined;
}

/** Python's `urllib.parse.quote`: every byte but letters, digits, `_.-~` and `safe` escaped. */
function quote(text: string, safe: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9_.~-]/.test(c) || safe.includes(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

function decodedPath(path: string): string | null {
  try {
    return decodeURIComponent(path);
  } catch {
    return null;
  }
}

interface MediaRange {
  type: string;
  subtype: string;
  quality: number;
  specificity: number;
  /** Parameters other than q: such a range matches only a type with the same ones. */
  params: boolean;
}

/**
 * Whether Accept ranks `image/png` before `text/html`, as Django's `get_preferred_type` does:
 * ranges sorted by quality, then specificity (stable), each type placed at the first range
 * it matches; a tie goes to `text/html`, named first.
 */
export function prefersImage(accept: string | undefined): boolean {
  const ranges = parseAccept(accept ?? '*/*');
  const rank = (type: string, subtype: string) =>
    ranges.findIndex((r) => !r.params && (r.type === '*' || r.type === type) && (r.subtype === '*' || r.subtype === subtype));
  const image = rank('image', 'png');
  const html = rank('text', 'html');
  return image !== -1 && (html === -1 || image < html);
}

function parseAccept(header: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const token of header.split(',')) {
    const [range = '', ...params] = token.split(';').map((p) => p.trim());
    const [type = '', subtype = ''] = range.toLowerCase().split('/');
    if (!type || !subtype) continue;
    let quality = 1;
    let others = false;
    for (const param of params) {
      const [name = '', value = ''] = param.split('=').map((p) => p.trim());
      if (name.toLowerCase() !== 'q') others = true;
      // Django drops a value it cannot read, or one out of range, for 1.
      else if (/^\d+(\.\d+)?$/.test(value) && Number(value) <= 1) quality = Math.round(Number(value) * 1000) / 1000;
    }
    if (quality === 0) continue;
    const specificity = type === '*' ? 0 : subtype === '*' ? 1 : others ? 3 : 2;
    ranges.push({ type, subtype, quality, specificity, params: others });
  }
  // Array.prototype.sort is stable: equal ranges keep the header's order, as Python's sorted.
  return ranges.sort((a, b) => b.quality - a.quality || b.specificity - a.specificity);
}
