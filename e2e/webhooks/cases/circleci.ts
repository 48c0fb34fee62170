import type { WebhookCase } from '../case';

export const cases: WebhookCase[] = [
  {
    fixture: "job_completed", headers: { 'Circleci-Event-Type': "job-completed" },
    messages: [
      {
        topic: "webhook-test",
        content: ":check: Job [say-hello](https://app.circleci.com/pipelines/github/circle-making/webhook-test/1/workflows/fda08377-fe7e-46b1-8992-3a7aaecac9c3/jobs/2) of workflow welcome **succeeded** in 5s (pipeline #1 on branch `circleci-project-setup`).\nCommit [1dc6aa6](https://github.com/circle-making/webhook-test/commit/1dc6aa69429bff4806ad6afe58d3d8f57e25973e) Add .circleci/config.yml by Bear Mike",
      },
    ],
  },
  {
    fixture: "job_completed__failed_on_tag", headers: { 'Circleci-Event-Type': "job-completed" },
    messages: [
      {
        topic: "webhook-test",
        content: ":cross_mark: Job [say-hello](https://app.circleci.com/pipelines/github/circle-making/webhook-test/1/workflows/fda08377-fe7e-46b1-8992-3a7aaecac9c3/jobs/2) of workflow welcome **failed** in 5s (pipeline #1 on tag `v1.0.0`).\nCommit [1dc6aa6](https://github.com/circle-making/webhook-test/commit/1dc6aa69429bff4806ad6afe58d3d8f57e25973e) Add .circleci/config.yml by Bear Mike",
      },
    ],
  },
  {
    fixture: "ping", headers: { 'Circleci-Event-Type': "ping" },
    unsupported: "The 'ping' event isn't currently supported by the CircleCI webhook; ignoring",
  },
  {
    fixture: "workflow_completed", headers: { 'Circleci-Event-Type': "workflow-completed" },
    messages: [
      {
        topic: "webhook-test",
        content: ":check: Workflow [welcome](https://app.circleci.com/pipelines/github/circle-making/webhook-test/1/workflows/fda08377-fe7e-46b1-8992-3a7aaecac9c3) **succeeded** in 31s (pipeline #1 on branch `circleci-project-setup`).\nCommit [1dc6aa6](https://github.com/circle-making/webhook-test/commit/1dc6aa69429bff4806ad6afe58d3d8f57e25973e) Add .circleci/config.yml by Bear Mike",
      },
    ],
  },
  {
    fixture: "workflow_completed__failed", headers: { 'Circleci-Event-Type': "workflow-completed" },
    messages: [
      {
        topic: "webhook-test",
        content: ":cross_mark: Workflow [welcome](https://app.circleci.com/pipelines/github/circle-making/webhook-test/1/workflows/fda08377-fe7e-46b1-8992-3a7aaecac9c3) **failed** in 31s (pipeline #1 on branch `circleci-project-setup`).\nCommit [1dc6aa6](https://github.com/circle-making/webhook-test/commit/1dc6aa69429bff4806ad6afe58d3d8f57e25973e) Add .circleci/config.yml by Bear Mike",
      },
    ],
  },
  {
    fixture: "job_completed", headers: { 'Circleci-Event-Type': "job-completed" }, query: { only_events: "[\"workflow-completed\"]" },
    messages: [],
  },
];
