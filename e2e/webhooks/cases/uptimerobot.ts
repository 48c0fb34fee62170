import type { WebhookCase } from '../case';

export const cases: WebhookCase[] = [
  {
    fixture: "monitor_down",
    messages: [
      {
        topic: "Web server",
        content: ":red_circle: Monitor **Web server** (https://www.example.com) is **down**: HTTP 502 - Bad Gateway.",
      },
    ],
  },
  {
    fixture: "monitor_up",
    messages: [
      {
        topic: "Web server",
        content: ":green_circle: Monitor **Web server** (https://www.example.com) is **back up**: HTTP 200 - OK. It was down for 13 minutes and 0 seconds.",
      },
    ],
  },
  {
    fixture: "ssl_expiry",
    messages: [
      {
        topic: "Web server",
        content: ":warning: The SSL certificate of monitor **Web server** (https://www.example.com) expires soon: The certificate expires on 2021-12-15.",
      },
    ],
  },
  {
    fixture: "unknown_alert_type",
    unsupported: "The '98' event isn't currently supported by the UptimeRobot webhook; ignoring",
  },
];
