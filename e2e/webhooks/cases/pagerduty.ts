import type { WebhookCase } from '../case';

export const cases: WebhookCase[] = [
  {
    fixture: "v2__incident_resolve",
    messages: [
      {
        topic: "Incident 1",
        content: "Incident [1](https://webdemo.pagerduty.com/incidents/PIJ90N7) resolved by [Laura Haley](https://webdemo.pagerduty.com/users/P553OPV).",
      },
    ],
  },
  {
    fixture: "v2__incident_trigger",
    messages: [
      {
        topic: "Incident 1",
        content: "Incident [1](https://webdemo.pagerduty.com/incidents/PIJ90N7) triggered by [Database](https://webdemo.pagerduty.com/services/P9JOP3R) (assigned to [Laura Haley](https://webdemo.pagerduty.com/users/P553OPV)):\n\n~~~ quote\nDisk space low on db-1\n~~~",
      },
    ],
  },
  {
    fixture: "v3__incident_acknowledged",
    messages: [
      {
        topic: "Incident 2",
        content: "Incident [2](https://acme.pagerduty.com/incidents/PGR0VU2) acknowledged by [Tenex Engineer](https://acme.pagerduty.com/users/PLH1HKV).",
      },
    ],
  },
  {
    fixture: "v3__incident_annotated",
    messages: [
      {
        topic: "Incident 2",
        content: "[Tenex Engineer](https://acme.pagerduty.com/users/PLH1HKV) added a note to incident [2](https://acme.pagerduty.com/incidents/PGR0VU2):\n\n~~~ quote\nRestarted the API pods; watching the error rate.\n~~~",
      },
    ],
  },
  {
    fixture: "v3__incident_escalated",
    messages: [
      {
        topic: "Incident 2",
        content: "Incident [2](https://acme.pagerduty.com/incidents/PGR0VU2) escalated to [Earline Greenholt](https://acme.pagerduty.com/users/PXPGF42).",
      },
    ],
  },
  {
    fixture: "v3__incident_priority_updated",
    messages: [
      {
        topic: "Incident 2",
        content: "Incident [2](https://acme.pagerduty.com/incidents/PGR0VU2) priority changed to **P1** by [Tenex Engineer](https://acme.pagerduty.com/users/PLH1HKV).",
      },
    ],
  },
  {
    fixture: "v3__incident_reassigned",
    messages: [
      {
        topic: "Incident 2",
        content: "Incident [2](https://acme.pagerduty.com/incidents/PGR0VU2) reassigned to [Earline Greenholt](https://acme.pagerduty.com/users/PXPGF42) by [Tenex Engineer](https://acme.pagerduty.com/users/PLH1HKV).",
      },
    ],
  },
  {
    fixture: "v3__incident_resolved",
    messages: [
      {
        topic: "Incident 2",
        content: "Incident [2](https://acme.pagerduty.com/incidents/PGR0VU2) resolved by [Tenex Engineer](https://acme.pagerduty.com/users/PLH1HKV).",
      },
    ],
  },
  {
    fixture: "v3__incident_triggered",
    messages: [
      {
        topic: "Incident 2",
        content: "Incident [2](https://acme.pagerduty.com/incidents/PGR0VU2) triggered by [API Service](https://acme.pagerduty.com/services/PF9KMXH) (assigned to [User 123](https://acme.pagerduty.com/users/PTUXL6G)):\n\n~~~ quote\nA little bump in the road\n~~~",
      },
    ],
  },
  {
    fixture: "v3__service_created",
    unsupported: "The 'service.created' event isn't currently supported by the PagerDuty webhook; ignoring",
  },
  {
    fixture: "v3__incident_resolved", query: { only_events: "[\"incident.triggered\"]" },
    messages: [],
  },
];
