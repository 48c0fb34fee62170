/**
 * The plain-text integrations: Zapier and IFTTT applets post a topic and a message of their
 * own making. Both take `topic` (or `subject`) and `content` (or `body`), as JSON or form fields.
 */
import { errors } from '@chat/contracts';
import type { Integration, WebhookRequest } from '../framework';

function fieldOf(req: WebhookRequest, names: readonly string[]): string | undefined {
  for (const n of names) {
    const v = req.body.exists ? req.body.get(n).optStr() : req.params[n];
    if (v !== undefined && v.trim() !== '') return v;
  }
  return undefined;
}

function textPost(req: WebhookRequest) {
  const topic = req.params.topic ?? fieldOf(req, ['topic', 'subject']);
  if (topic === undefined) throw errors.badRequest(`Topic can't be empty`);
  const content = fieldOf(req, ['content', 'body']);
  if (content === undefined) throw errors.badRequest(`Content can't be empty`);
  return { topic, content };
}

export const zapier: Integration = {
  name: 'zapier',
  displayName: 'Zapier',
  allEventTypes: null,
  body: 'form',
  // Zapier's "test connection" asks who the key belongs to: the caller's name, email and id.
  answersCaller: (req) => req.body.exists && req.body.get('type').value === 'auth',
  handle: (_event, req) => textPost(req),
};

export const ifttt: Integration = {
  name: 'ifttt',
  displayName: 'IFTTT',
  allEventTypes: null,
  body: 'form',
  handle: (_event, req) => textPost(req),
};
