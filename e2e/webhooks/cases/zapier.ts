import type { WebhookCase } from '../case';

export const cases: WebhookCase[] = [
  // Zapier's connection test: answered with whom the key belongs to, nothing posted.
  { fixture: "auth", caller: true },
  {
    fixture: "message",
    messages: [
    {
      topic: "New signup",
      content: "**Jane Doe** (jane@example.com) signed up for the *Pro* plan.",
    }
    ],
  },
];
