/**
 * The transport of every call: the family's form encoding (strings as they are, every other
 * value JSON-encoded), the `{result, msg, code}` envelope, and one error type for refusals and
 * for an unreachable server. Runs on the browser's fetch and on Node's alike.
 */

/** How a caller proves who it is: an API key (bots, tests, the bench) or the browser session. */
export type Auth =
  | { kind: 'basic'; email: string; apiKey: string }
  | { kind: 'session'; csrfToken: string }
  | { kind: 'none' };

export interface ClientOptions {
  /** Origin of the server, e.g. `http://127.0.0.1:9991`; empty for the page's own origin. */
  baseUrl?: string;
  auth: Auth;
  /** Defaults to the global fetch. */
  fetch?: typeof fetch;
  /** Sent as User-Agent where the platform allows it (Node); browsers send their own. */
  userAgent?: string;
}

export type Params = Record<string, unknown>;

/** A refusal in the envelope (status ≥ 400), or `NETWORK` when no answer came at all. */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
    readonly body: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** True when retrying the same request later may succeed (no answer, or the server busy). */
  get retryable(): boolean {
    return this.code === 'NETWORK' || this.status === 502 || this.status === 503 || this.status === 504 || this.status === 429;
  }
}

/** Strings go as they are; numbers, booleans, lists and objects JSON-encoded, as the family expects. */
export function encodeParams(params: Params): URLSearchParams {
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue;
    form.set(key, typeof value === 'string' ? value : JSON.stringify(value));
  }
  return form;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Extra headers (e.g. none usually). */
  headers?: Record<string, string>;
}

export class Transport {
  /** `/api/v1` for API keys, `/json` for the browser session (the family's convention). */
  readonly prefix: string;
  private readonly doFetch: typeof fetch;

  constructor(readonly options: ClientOptions) {
    this.prefix = options.auth.kind === 'session' ? '/json' : '/api/v1';
    this.doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  }

  url(path: string, query?: URLSearchParams): string {
    const qs = query && [...query.keys()].length ? `?${query}` : '';
    return `${this.options.baseUrl ?? ''}${this.prefix}${path}${qs}`;
  }

  headers(method: string): Record<string, string> {
    const h: Record<string, string> = {};
    const { auth, userAgent } = this.options;
    if (auth.kind === 'basic') h.authorization = `Basic ${base64(`${auth.email}:${auth.apiKey}`)}`;
    if (auth.kind === 'session' && method !== 'GET' && method !== 'HEAD') h['x-csrftoken'] = auth.csrfToken;
    if (userAgent) h['user-agent'] = userAgent;
    return h;
  }

  /** One call; resolves to the success body, throws ApiError for anything else. */
  async call<T>(method: string, path: string, params: Params = {}, opts: CallOptions = {}): Promise<T> {
    const form = encodeParams(params);
    const inQuery = method === 'GET' || method === 'HEAD';
    let res: Response;
    try {
      res = await this.doFetch(this.url(path, inQuery ? form : undefined), {
        method,
        headers: { ...this.headers(method), ...(inQuery ? {} : { 'content-type': 'application/x-www-form-urlencoded' }), ...opts.headers },
        body: inQuery ? undefined : form.toString(),
        credentials: 'same-origin',
        signal: opts.signal,
      });
    } catch (err) {
      if (opts.signal?.aborted) throw err;
      throw new ApiError('NETWORK', (err as Error).message || 'The server could not be reached.', 0);
    }
    return readEnvelope<T>(res);
  }

  /** A multipart upload (POST), e.g. a file to /user_uploads; `onProgress` needs XHR in browsers. */
  async upload<T>(path: string, form: FormData, opts: CallOptions = {}): Promise<T> {
    let res: Response;
    try {
      res = await this.doFetch(this.url(path), { method: 'POST', headers: this.headers('POST'), body: form, credentials: 'same-origin', signal: opts.signal });
    } catch (err) {
      if (opts.signal?.aborted) throw err;
      throw new ApiError('NETWORK', (err as Error).message || 'The server could not be reached.', 0);
    }
    return readEnvelope<T>(res);
  }
}

export async function readEnvelope<T>(res: Response): Promise<T> {
  const text = await res.text();
  let body: Record<string, unknown> = {};
  try {
    body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    // A proxy's HTML error page: no envelope to read.
  }
  if (res.ok && body.result !== 'error') return body as T;
  const code = typeof body.code === 'string' ? body.code : res.status >= 500 ? 'SERVER_ERROR' : 'BAD_REQUEST';
  const msg = typeof body.msg === 'string' && body.msg ? body.msg : `The server answered ${res.status}.`;
  throw new ApiError(code, msg, res.status, body);
}

function base64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin);
}
