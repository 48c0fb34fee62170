/**
 * What a registration asked for, as the state sections read it, and the deployment's facts
 * register reports: read by the route's parser (routes/register-params.ts), the action and the
 * state sections alike.
 */
import { SERVER_VERSION } from '@chat/contracts';

export type IncludeSubscribers = boolean | 'partial';

export interface RegisterRequest {
  applyMarkdown: boolean;
  clientGravatar: boolean;
  includeSubscribers: IncludeSubscribers;
  slimPresence: boolean;
  presenceHistoryLimitDays: number | null;
  eventTypes: string[] | null;
  fetchEventTypes: string[] | null;
  allPublicStreams: boolean;
  clientCapabilities: Record<string, boolean>;
  narrow: Array<[string, string]>;
  idleTimeoutSecs: number;
  clientName: string;
}

/** Facts of this deployment that register reports (events service configuration). */
export interface ServerInfo {
  /** zulip_merge_base / svc_merge_base (MERGE_BASE). */
  mergeBase: string;
  pushNotificationsEnabled: boolean;
  /** Not production: the development login is offered. */
  development: boolean;
}

export const DEFAULT_SERVER_INFO: ServerInfo = { mergeBase: SERVER_VERSION, pushNotificationsEnabled: false, development: true };

