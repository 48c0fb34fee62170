import type { WebhookCase } from '../case';

export const cases: WebhookCase[] = [
  {
    fixture: "alert",
    messages: [
    {
      topic: "10.0.0.5:9100",
      content: ":alert: **FIRING** InstanceDown ([graph](http://prometheus.example.com:9090/graph?g0.expr=up+%3D%3D+0&g0.tab=0))",
    }
    ],
  },
  {
    fixture: "firing_and_resolved",
    messages: [
    {
      topic: "db-1:9100",
      content: ":alert: **FIRING**\n* DiskFull ([graph](http://prometheus.example.com:9090/graph?g0.expr=disk_used_ratio+%3E+0.9&g0.tab=0))\n* HighLoad ([graph](http://prometheus.example.com:9090/graph?g0.expr=node_load5+%3E+8&g0.tab=0))",
    },
    {
      topic: "web-2:9100",
      content: ":squared_ok: **Resolved** InstanceDown ([graph](http://prometheus.example.com:9090/graph?g0.expr=up+%3D%3D+0&g0.tab=0))",
    }
    ],
  },
  // Topics by another label, described by an annotation.
  {
    fixture: "alert", query: { name: "job", desc: "summary" },
    messages: [
    {
      topic: "node",
      content: ":alert: **FIRING** Instance 10.0.0.5:9100 down ([graph](http://prometheus.example.com:9090/graph?g0.expr=up+%3D%3D+0&g0.tab=0))",
    }
    ],
  },
];
