import type { WebhookCase } from '../case';

export const cases: WebhookCase[] = [
  {
    fixture: "completed__aborted",
    messages: [
      {
        topic: "asgard",
        content: ":stop_sign: [Build #18](http://localhost:8080/job/asgard/18/) (branch `master`, commit c6d86dc) **was aborted**.",
      },
    ],
  },
  {
    fixture: "completed__failure",
    messages: [
      {
        topic: "asgard",
        content: ":cross_mark: [Build #18](http://localhost:8080/job/asgard/18/) (branch `master`, commit c6d86dc) **failed**.",
      },
    ],
  },
  {
    fixture: "completed__success",
    messages: [
      {
        topic: "asgard",
        content: ":check: [Build #18](http://localhost:8080/job/asgard/18/) (branch `master`, commit c6d86dc) **succeeded**.",
      },
    ],
  },
  {
    fixture: "finalized",
    messages: [],
  },
  {
    fixture: "queued",
    messages: [],
  },
  {
    fixture: "started",
    messages: [
      {
        topic: "asgard",
        content: "[Build #18](http://localhost:8080/job/asgard/18/) (branch `master`, commit c6d86dc) started.",
      },
    ],
  },
  {
    fixture: "started__without_scm",
    messages: [
      {
        topic: "asgard",
        content: "[Build #18](http://localhost:8080/job/asgard/18/) started.",
      },
    ],
  },
  {
    fixture: "completed__failure", query: { exclude_events: "[\"completed\"]" },
    messages: [],
  },
];
