import type { WebhookCase } from '../case';

export const cases: WebhookCase[] = [
  {
    fixture: "firing",
    messages: [
    {
      topic: "High memory usage",
      content: ":alert: **Firing**: High memory usage\nMemory above 90% on us-1\nValues: `[ var='B' labels={__name__=go_memstats_alloc_bytes, instance=host.docker.internal:3000} value=44.23943737541908 ], [ var='C' labels={__name__=go_memstats_alloc_bytes, instance=host.docker.internal:3000} value=1 ]`\nLabels: team=blue, zone=us-1\n[source](http://grafana.example.com/alerting/grafana/c21e2b7d/view?orgId=1) · [dashboard](http://grafana.example.com/d/dashboard_uid?orgId=1) · [panel](http://grafana.example.com/d/dashboard_uid?orgId=1&viewPanel=1) · [silence](http://grafana.example.com/alerting/silence/new?alertmanager=grafana&matcher=alertname%3DHigh+memory+usage&matcher=team%3Dblue&matcher=zone%3Dus-1&orgId=1)",
    }
    ],
  },
  {
    fixture: "legacy_alerting",
    messages: [
    {
      topic: "Test notification",
      content: ":alert: [[Alerting] Test notification](http://localhost:3000/)\n\nSomeone is testing the alert notification within Grafana.\n\n* **High value**: 100\n* **Higher Value**: 200\n\n[image](https://grafana.com/assets/img/blog/mixed_styles.png)",
    }
    ],
  },
  { fixture: "legacy_unknown_state", unsupported: "The 'unknown_state' event isn't currently supported by the Grafana webhook; ignoring" },
  {
    fixture: "resolved",
    messages: [
    {
      topic: "High memory usage",
      content: ":squared_ok: **Resolved**: High memory usage\nMemory above 90% on us-1\nLabels: team=blue, zone=us-1\n[source](http://grafana.example.com/alerting/grafana/c21e2b7d/view?orgId=1) · [silence](http://grafana.example.com/alerting/silence/new?alertmanager=grafana&matcher=alertname%3DHigh+memory+usage&orgId=1)",
    }
    ],
  },
];
