/**
 * POST /register's parameters, read from the request into a RegisterRequest: defaults by
 * whether the caller is signed in, and the family's refusals of what a spectator or a guest may
 * not ask for.
 */
import { z } from 'zod';
import { errors, isGuest, LIMITS, optionalActor, type Identity } from '@chat/contracts';
import type { Params } from '@chat/kit';
import type { IncludeSubscribers, RegisterRequest } from '../state/request';

const stringList = z.array(z.string());
const capabilities = z.record(z.string(), z.boolean());
const narrowTerm = z.union([
  z.tuple([z.string(), z.union([z.string(), z.number()])]),
  z.object({ operator: z.string(), operand: z.union([z.string(), z.number()]), negated: z.boolean().optional() }),
]);

function parseIncludeSubscribers(p: Params): IncludeSubscribers {
  const raw = p.raw('include_subscribers');
  if (raw === undefined) return false;
  // Sent bare ("true", "partial") by form clients, JSON-encoded ('"partial"') by some others.
  const v = typeof raw === 'string' ? raw.replace(/^"(.*)"$/, '$1') : raw;
  if (v === true || v === 'true') return true;
  if (v === false || v === 'false') return false;
  if (v === 'partial') return 'partial';
  throw errors.invalidArgument('include_subscribers', "Invalid include_subscribers");
}

/** idle_queue_timeout=mobile: the long timeout the family gives phones, which poll rarely in the background. */
export const MOBILE_IDLE_QUEUE_TIMEOUT_SECS = 12 * 3600;

function parseIdleTimeout(p: Params): number {
  // idle_queue_timeout is the documented name; queue_lifespan_secs the older undocumented one.
  const name = p.raw('idle_queue_timeout') !== undefined ? 'idle_queue_timeout' : 'queue_lifespan_secs';
  const raw = p.raw(name);
  if (raw === undefined) return LIMITS.defaultIdleQueueTimeoutSecs;
  const text = typeof raw === 'string' ? raw.replace(/^"(.*)"$/, '$1') : raw;
  if (text === 'mobile') return MOBILE_IDLE_QUEUE_TIMEOUT_SECS;
  const value = typeof text === 'number' ? text : typeof text === 'string' && /^-?\d+$/.test(text.trim()) ? Number(text) : NaN;
  if (!Number.isInteger(value)) throw errors.invalidArgument(name, `Invalid ${name}`);
  if (value === 0) return LIMITS.defaultIdleQueueTimeoutSecs;
  if (value < 1 || value > LIMITS.maxIdleQueueTimeoutSecs) {
    throw errors.invalidArgument(name, `${name} must be between 1 and ${LIMITS.maxIdleQueueTimeoutSecs} seconds`);
  }
  return value;
}

/** Reads every register parameter; `authenticated` decides defaults and what is allowed. */
export function parseRegister(p: Params, identity: Identity, userAgent: string | undefined): RegisterRequest {
  const caller = optionalActor(identity);
  const authenticated = caller !== null;
  const guest = caller !== null && isGuest(caller);
  const gravatar = p.bool('client_gravatar');
  const includeSubscribers = parseIncludeSubscribers(p);
  if (!authenticated) {
    if (gravatar === true) throw errors.badRequest("Invalid 'client_gravatar' parameter for anonymous request");
    if (includeSubscribers !== false) {
      throw errors.badRequest("Invalid 'include_subscribers' parameter for anonymous request");
    }
  }
  const allPublicStreams = p.bool('all_public_streams');
  if (allPublicStreams && (!authenticated || guest)) throw errors.badRequest('User not authorized for this query');
  const presenceDays = p.int('presence_history_limit_days');
  if (presenceDays !== undefined && presenceDays < 0) {
    throw errors.invalidArgument('presence_history_limit_days', 'Invalid presence_history_limit_days');
  }
  const narrow = (p.json('narrow', z.array(narrowTerm)) ?? []).map((t): [string, string] =>
    Array.isArray(t)
      ? [t[0], String(t[1])]
      : [t.negated ? `-${t.operator}` : t.operator, String(t.operand)],
  );
  const eventTypes = p.json('event_types', stringList) ?? null;
  return {
    applyMarkdown: p.bool('apply_markdown', false),
    clientGravatar: gravatar ?? authenticated,
    includeSubscribers,
    slimPresence: p.bool('slim_presence', false),
    presenceHistoryLimitDays: presenceDays ?? null,
    eventTypes,
    fetchEventTypes: p.json('fetch_event_types', stringList) ?? eventTypes,
    allPublicStreams: allPublicStreams ?? false,
    clientCapabilities: p.json('client_capabilities', capabilities) ?? { notification_settings_null: false },
    narrow,
    idleTimeoutSecs: parseIdleTimeout(p),
    clientName: p.str('client') ?? clientFromUserAgent(userAgent),
  };
}

function clientFromUserAgent(ua: string | undefined): string {
  const first = (ua ?? '').split(/[\s/]/)[0];
  return first ? first.slice(0, 30) : 'API';
}
