import { RelayError } from './errors';

/** This server's identity at the relay (HTTP Basic: the UUID as user name, the key as password). */
export interface RelayCredentials {
  uuid: string;
  apiKey: string;
}

export interface RelayEndpoint {
  url: string;
  timeoutMs: number;
}

/**
 * A request body as the relay reads it. Its views take ordinary fields from a form (integers
 * and lists JSON-encoded inside the form value, as its `Json[...]` parameters expect), and the
 * notify endpoints one JSON document; the family's own server sends each endpoint that way.
 */
export type RelayBody = { form: Record<string, string> } | { json: unknown };

export interface RelayCall {
  method?: 'GET' | 'POST';
  credentials?: RelayCredentials;
  body?: RelayBody;
  /** A 400 with this message counts as success (forgetting something the relay does not hold). */
  absentOkMessage?: string;
  /** Codes of a 400 that blame the client's data rather than this server's setup. */
  rejections?: ReadonlySet<string>;
}

/** One request to the relay; the parsed success answer, or a classified RelayError. */
export async function relayRequest(endpoint: RelayEndpoint, path: string, call: RelayCall): Promise<Record<string, unknown>> {
  const headers: Record<string, string> = {};
  if (call.credentials) {
    headers.authorization = `Basic ${Buffer.from(`${call.credentials.uuid}:${call.credentials.apiKey}`).toString('base64')}`;
  }
  let payload: string | undefined;
  if (call.body && 'form' in call.body) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    payload = new URLSearchParams(call.body.form).toString();
  } else if (call.body) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(call.body.json);
  }
  let res: Response;
  let text: string;
  try {
    res = await fetch(`${endpoint.url}${path}`, {
      method: call.method ?? 'POST',
      headers,
      body: payload,
      signal: AbortSignal.timeout(endpoint.timeoutMs),
    });
    text = await res.text();
  } catch (err) {
    throw new RelayError('network', `push relay unreachable: ${describe(err)}`);
  }
  const json = parseObject(text);
  if (res.status >= 500 || res.status === 408 || res.status === 429) {
    throw new RelayError('server', `push relay answered ${res.status}`, res.status);
  }
  if (call.absentOkMessage && res.status === 400 && json?.msg === call.absentOkMessage) return json;
  if (res.status >= 400) {
    const code = typeof json?.code === 'string' ? json.code : undefined;
    const msg = typeof json?.msg === 'string' ? json.msg : '';
    const kind = res.status === 400 && code && call.rejections?.has(code) ? 'rejected' : 'config';
    throw new RelayError(kind, `push relay refused the request (${res.status} ${code ?? ''}${msg ? `: ${msg}` : ''})`, res.status, code);
  }
  if (!json || json.result !== 'success') {
    throw new RelayError('server', `push relay answered ${res.status} without a success envelope`, res.status);
  }
  return json;
}

function parseObject(text: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function describe(err: unknown): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError') return 'timed out';
  return e?.cause?.code ?? e?.cause?.message ?? e?.message ?? String(err);
}
