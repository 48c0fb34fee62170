/**
 * POST /external/<name>: incoming webhooks (docs/integrations.md). The URL's own parameters
 * (`stream`, `topic`, the event filters, the integration's options) are read from the query
 * string, and from a form body's fields; a JSON body is the provider's and none of its keys are
 * parameters, as on the family's server. The answer is written here rather than by `endpoint`,
 * which would report the provider's fields as unsupported parameters.
 */
import type { Request, Router } from 'express';
import { z } from 'zod';
import { errors } from '@chat/contracts';
import { sendSuccess, type AuthedIdentity } from '@chat/kit';
import { integrationNamed, Payload, type Integration, type WebhookRequest } from '@chat/webhooks';
import type { Services } from '../context';
import { doIncomingWebhook, webhookConfig, type WebhookTarget } from '../actions/webhooks';
import { loadSender, requestCaller } from '../actions/send';

const eventList = z.array(z.string());

function flat(values: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(values)) {
    const last = Array.isArray(v) ? v[v.length - 1] : v;
    if (typeof last === 'string') out[k] = last;
  }
  return out;
}

function jsonParam(params: Readonly<Record<string, string | undefined>>, name: string): string[] | undefined {
  const raw = params[name];
  if (raw === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw errors.invalidJson(name);
  }
  const ok = eventList.safeParse(parsed);
  if (!ok.success) throw errors.invalidArgument(name, `${name} is not a list of strings`);
  return ok.data;
}

/** Reads a body no generic parser took (a provider that names no content type). */
async function unparsedBody(req: Request): Promise<Buffer> {
  if (req.rawBody) return req.rawBody;
  if (req.readableEnded) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The provider's request as the integration reads it: parameters, headers, body, raw bytes. */
async function readRequest(req: Request, integration: Integration, config: Record<string, string>): Promise<WebhookRequest> {
  const query = flat(req.query as Record<string, unknown>);
  const form = req.is('application/x-www-form-urlencoded') || req.is('multipart/form-data');
  const fields = form && req.body && typeof req.body === 'object' ? flat(req.body as Record<string, unknown>) : {};
  const params = { ...fields, ...query };
  const raw = await unparsedBody(req);
  let body: unknown;
  if (form) {
    // Providers that post forms (GitHub's form content type, Slack scripts) put the JSON in `payload`.
    if (fields.payload !== undefined) body = parseJson(fields.payload, integration);
    else if (integration.body !== 'form') throw errors.malformedJsonBody();
  } else {
    const text = raw.toString('utf8');
    body = text.trim() === '' ? undefined : parseJson(text, integration);
    if (body === undefined && integration.body !== 'form') throw errors.malformedJsonBody();
  }
  const headers: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(req.headers)) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return { headers, params, body: new Payload(body), raw, config };
}

function parseJson(text: string, integration: Integration): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw integration.body === 'form' ? errors.webhookPayloadMalformed(integration.displayName) : errors.malformedJsonBody();
  }
}

export function webhookRoutes(router: Router, services: Services): void {
  router.post('/external/:name', async (req, res, next) => {
    try {
      const integration = integrationNamed(String(req.params.name));
      if (!integration) throw errors.notFound();
      const identity = req.identity;
      if (!identity || identity.userId === undefined) throw errors.notLoggedIn();
      const caller = await loadSender(services.db, requestCaller(identity as AuthedIdentity));
      const request = await readRequest(req, integration, await webhookConfig(services, caller.user.id));
      const p = request.params;
      const target: WebhookTarget = {
        stream: p.stream?.trim() || undefined,
        topic: p.topic,
        onlyEvents: jsonParam(p, 'only_events'),
        excludeEvents: jsonParam(p, 'exclude_events'),
      };
      sendSuccess(res, await doIncomingWebhook(services, caller, integration, request, target));
    } catch (err) {
      next(err);
    }
  });
}
