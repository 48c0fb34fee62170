/**
 * What an integration is and how a provider's request becomes messages (docs/integrations.md).
 * An integration is a plain object: its name (the last part of `/api/v1/external/<name>`), what
 * `POST /register` says of it, where the provider names its event, how it signs, and `handle`,
 * which turns one event into a topic and a message. Everything around it (who is posting, where
 * the message goes, the event filters, the notices to the bot's owner) is the messaging
 * service's, the same for every integration.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { errors } from '@chat/contracts';
import { Payload } from './payload';

/** An option set when the bot is created (`config_data`), e.g. the secret the provider signs with. */
export interface ConfigOption {
  key: string;
  label: string;
  /** The family's name of the check its value passes: `check_string`, `check_bool`, `check_url`. */
  validator: string;
}

export interface WebhookRequest {
  /** Header names in lower case. */
  headers: Readonly<Record<string, string | undefined>>;
  /** The URL's query parameters, and a form body's fields. */
  params: Readonly<Record<string, string | undefined>>;
  /** The JSON body (or a form's `payload` field), read through Payload. */
  body: Payload;
  /** The body's bytes as sent, for signatures. */
  raw: Buffer;
  /** The bot's configuration (bot_config_data). */
  config: Readonly<Record<string, string>>;
}

export interface WebhookMessage {
  topic: string;
  content: string;
}

export interface Integration {
  name: string;
  displayName: string;
  /** Events `only_events`/`exclude_events` can name (register's `all_event_types`); null when it has none. */
  allEventTypes: readonly string[] | null;
  configOptions?: readonly ConfigOption[];
  /** Options of the URL a user generates, as register reports them (`url_options`). */
  urlOptions?: readonly ConfigOption[];
  /** 'json' (the default): the body must be JSON. 'form': form fields are accepted too. */
  body?: 'json' | 'form';
  /** The header the provider names its event in; its absence is the family's error. */
  eventHeader?: string;
  /** The event when the payload names it (or completes the header's); the header's value otherwise. */
  event?(req: WebhookRequest): string | null;
  /**
   * True for a request that only asks whom the key belongs to (Zapier's connection test): the
   * answer is the caller's name, email and id, and nothing is posted.
   */
  answersCaller?(req: WebhookRequest): boolean;
  /** Throws when the provider signs its requests and this one's signature is wrong. */
  verify?(req: WebhookRequest): void;
  /**
   * The messages for one event: an empty list posts nothing (an event its users do not want to
   * hear about); `throw new UnsupportedEvent(event)` for one the integration does not know.
   */
  handle(event: string | null, req: WebhookRequest): WebhookMessage | WebhookMessage[];
}

/** Thrown by `handle` for an event it does not know (answered with the family's words, not an error). */
export class UnsupportedEvent extends Error {
  constructor(readonly event: string) {
    super(`unsupported event ${event}`);
  }
}

/** The family's answer to an event an integration does not handle. */
export function unsupportedEventText(event: string, integration: Integration): string {
  return `The '${event}' event isn't currently supported by the ${integration.displayName} webhook; ignoring`;
}

/** What became of a request. */
export type Outcome =
  | { kind: 'post'; event: string | null; messages: WebhookMessage[] }
  /** The bot's URL filters left it out: nothing is posted. */
  | { kind: 'filtered'; event: string }
  | { kind: 'unsupported'; event: string; text: string }
  /** The provider's event header was missing (the owner is told once, the caller gets the error). */
  | { kind: 'missing-header'; header: string };

export interface EventFilters {
  onlyEvents?: readonly string[];
  excludeEvents?: readonly string[];
}

/**
 * Runs one request through an integration: signature, event, filters, messages. Errors thrown
 * by the reads of the payload are the envelope's (Payload); anything else an integration throws
 * is a bug and surfaces as such.
 */
export function processWebhook(integration: Integration, req: WebhookRequest, filters: EventFilters): Outcome {
  integration.verify?.(req);
  let event: string | null = null;
  if (integration.eventHeader) {
    event = req.headers[integration.eventHeader.toLowerCase()] ?? null;
    if (event === null) return { kind: 'missing-header', header: integration.eventHeader };
  }
  // An integration may complete the header's event from the payload (GitLab's "Issue Hook open").
  if (integration.event) event = integration.event(req);
  if (event !== null && !eventWanted(event, filters)) return { kind: 'filtered', event };
  try {
    const out = integration.handle(event, req);
    return { kind: 'post', event, messages: Array.isArray(out) ? out : [out] };
  } catch (err) {
    if (err instanceof UnsupportedEvent) return { kind: 'unsupported', event: err.event, text: unsupportedEventText(err.event, integration) };
    throw err;
  }
}

/** The family's filters: Unix shell-style patterns (`*`, `?`, `[...]`) over the whole event name. */
export function eventWanted(event: string, filters: EventFilters): boolean {
  if (filters.onlyEvents && !filters.onlyEvents.some((p) => globMatch(p, event))) return false;
  if (filters.excludeEvents && filters.excludeEvents.some((p) => globMatch(p, event))) return false;
  return true;
}

function globMatch(pattern: string, text: string): boolean {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*') re += '.*';
    else if (c === '?') re += '.';
    else if (c === '[' && pattern.indexOf(']', i + 2) !== -1) {
      const end = pattern.indexOf(']', i + 2);
      let set = pattern.slice(i + 1, end).replace(/\\/g, '\\\\');
      if (set.startsWith('!')) set = '^' + set.slice(1);
      re += `[${set}]`;
      i = end;
    } else re += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return new RegExp(`^${re}$`, 's').test(text);
}

/** The bot's secret for a signing provider, if one was configured (the request is then checked). */
export const SECRET_OPTION: ConfigOption = { key: 'secret', label: 'Webhook secret', validator: 'check_string' };

/** A hex HMAC-SHA256 of the body, compared in constant time with what the provider sent. */
export function checkHmacSha256(req: WebhookRequest, sent: string | undefined, prefix = ''): void {
  const secret = req.config[SECRET_OPTION.key];
  if (!secret) return;
  const expected = prefix + createHmac('sha256', secret).update(req.raw).digest('hex');
  if (!sent || !sameText(sent.trim(), expected)) throw errors.webhookSignatureFailed();
}

/** A shared token sent as is (GitLab's X-Gitlab-Token). */
export function checkToken(req: WebhookRequest, sent: string | undefined): void {
  const secret = req.config[SECRET_OPTION.key];
  if (!secret) return;
  if (!sent || !sameText(sent, secret)) throw errors.webhookSignatureFailed();
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
