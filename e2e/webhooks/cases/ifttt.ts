import type { WebhookCase } from '../case';

export const cases: WebhookCase[] = [
  {
    fixture: "message",
    messages: [
    {
      topic: "Weather",
      content: "It will rain tomorrow in Lisbon: take an umbrella.",
    }
    ],
  },
  {
    fixture: "subject_and_body",
    messages: [
    {
      topic: "Feed",
      content: "New post: [Release notes](https://example.com/blog/release-notes)",
    }
    ],
  },
];
