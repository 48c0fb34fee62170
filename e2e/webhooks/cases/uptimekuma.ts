import type { WebhookCase } from '../case';

export const cases: WebhookCase[] = [
  {
    fixture: "down",
    messages: [
      {
        topic: "Example site",
        content: ":red_circle: Monitor **Example site** (https://example.com) is **down**: Request failed with status code 503.",
      },
    ],
  },
  {
    fixture: "down__port_monitor",
    messages: [
      {
        topic: "Mail server",
        content: ":red_circle: Monitor **Mail server** (mail.example.com:25) is **down**: connect ECONNREFUSED 203.0.113.7:25.",
      },
    ],
  },
  {
    fixture: "test",
    messages: [
      {
        topic: "Uptime Kuma",
        content: "Uptime Kuma Alert: Testing",
      },
    ],
  },
  {
    fixture: "up",
    messages: [
      {
        topic: "Example site",
        content: ":green_circle: Monitor **Example site** (https://example.com) is **up**: 200 - OK.",
      },
    ],
  },
  {
    fixture: "down", query: { exclude_events: "[\"down\"]" },
    messages: [],
  },
];
