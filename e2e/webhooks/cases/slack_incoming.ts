import type { WebhookCase } from '../case';

// Without a channel in the payload the topic is the family's "(no topic)", which the server
// stores as the empty topic: "general chat" to a client that does not ask for empty names.
export const cases: WebhookCase[] = [
  {
    fixture: "attachments",
    messages: [
    {
      topic: "general chat",
      content: "Optional text that appears above the attachment block\n**[Slack API Documentation](https://api.slack.com/)**\nOptional text that appears within the attachment\n**Priority**: High\n[image](http://my-website.com/path/to/image.jpg)\n*Slack API*",
    }
    ],
  },
  {
    fixture: "blocks",
    messages: [
    {
      topic: "deploys",
      content: "### New review\n\nDanny Torrence left the following review for your property:\n\n[Overlook Hotel](https://example.com) \n :star: \n Doors had too many axe holes, guest in room 237 was far too rowdy, whole place felt stuck in the 1920s.\n\n[Haunted hotel image](https://is5-ssl.mzstatic.com/image/thumb/Purple3/v4/d3/72/5c/d3725c8f-c642-5d69-1904-aa36e4297885/source/256x256bb.jpg)\n\n---\n\n* **Average Rating**: 1.0\n* **Stays**: 3\n\nPosted by @danny",
    }
    ],
  },
  {
    fixture: "text",
    messages: [
    {
      topic: "general chat",
      content: "Danny Torrence left a 1 star review for your property.\n**Review:** *Doors had too many axe holes*, guest in [booking 4711](https://example.com/bookings/4711) ~~was~~ is unhappy.",
    }
    ],
  },
];
