/**
 * One fixture of an integration and what posting it must do: the messages it posts (topic and
 * Markdown, in order), that it posts nothing, the family's "unsupported event" answer, or an
 * error. Each integration's cases live in cases/<name>.ts beside fixtures/<name>/, and
 * webhooks-integrations.test.ts runs every one of them through the gateway.
 */
export interface WebhookCase {
  /** fixtures/<integration>/<fixture>.json */
  fixture: string;
  headers?: Record<string, string>;
  /** Extra URL parameters (beyond api_key and stream). */
  query?: Record<string, string>;
  messages?: Array<{ topic: string; content: string }>;
  unsupported?: string;
  error?: string;
  /** Answered with the caller's name, email and id (Zapier's connection test). */
  caller?: boolean;
}
