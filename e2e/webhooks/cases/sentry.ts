import type { WebhookCase } from '../case';

export const cases: WebhookCase[] = [
  {
    fixture: "comment__created", headers: { 'Sentry-Hook-Resource': "comment" },
    unsupported: "The 'comment.created' event isn't currently supported by the Sentry webhook; ignoring",
  },
  {
    fixture: "error__created", headers: { 'Sentry-Hook-Resource': "error" },
    messages: [
      {
        topic: "ZeroDivisionError: division by zero",
        content: "**New error event:** [ZeroDivisionError: division by zero](https://sentry.io/organizations/example/issues/1117540176/events/e4874d664c3540c1a32eab185f12c5ab/)\n~~~ quote\n**level:** error\n**timestamp:** 2020-04-27T17:20:33.185000Z\n**culprit:** app.math in divide\n**filename:** app/math.py\n~~~",
      },
    ],
  },
  {
    fixture: "event_alert__triggered", headers: { 'Sentry-Hook-Resource': "event_alert" },
    messages: [
      {
        topic: "ZeroDivisionError: division by zero",
        content: "**Alert \"Send a notification for new errors\":** [ZeroDivisionError: division by zero](https://sentry.io/organizations/example/issues/1117540176/events/e4874d664c3540c1a32eab185f12c5ab/)\n~~~ quote\n**level:** error\n**timestamp:** 2020-04-27T17:20:33.185000Z\n**culprit:** app.math in divide\n**filename:** app/math.py\n~~~",
      },
    ],
  },
  {
    fixture: "installation__created", headers: { 'Sentry-Hook-Resource': "installation" },
    messages: [],
  },
  {
    fixture: "issue__assigned", headers: { 'Sentry-Hook-Resource': "issue" },
    messages: [
      {
        topic: "Error: Something went wrong",
        content: "Issue **[Error: Something went wrong](https://sentry.io/organizations/example/issues/1170820242/)** has now been assigned to **Hana Hayes** by **Meredith Heller**.",
      },
    ],
  },
  {
    fixture: "issue__created", headers: { 'Sentry-Hook-Resource': "issue" },
    messages: [
      {
        topic: "Error: Something went wrong",
        content: "**New issue created:** [Error: Something went wrong](https://sentry.io/organizations/example/issues/1170820242/)\n~~~ quote\n**level:** error\n**timestamp:** 2019-08-19T20:58:37.391000Z\n**culprit:** error(app/main)\n**assignee:** No one\n~~~",
      },
    ],
  },
  {
    fixture: "issue__ignored", headers: { 'Sentry-Hook-Resource': "issue" },
    messages: [
      {
        topic: "Error: Something went wrong",
        content: "Issue **[Error: Something went wrong](https://sentry.io/organizations/example/issues/1170820242/)** was ignored by **Meredith Heller**.",
      },
    ],
  },
  {
    fixture: "issue__resolved", headers: { 'Sentry-Hook-Resource': "issue" },
    messages: [
      {
        topic: "Error: Something went wrong",
        content: "Issue **[Error: Something went wrong](https://sentry.io/organizations/example/issues/1170820242/)** was marked as resolved by **Meredith Heller**.",
      },
    ],
  },
  {
    fixture: "metric_alert__critical", headers: { 'Sentry-Hook-Resource': "metric_alert" },
    messages: [
      {
        topic: "Critical: High error rate",
        content: ":alert: **Critical:** [Critical: High error rate](https://sentry.io/organizations/example/alerts/rules/details/7/)\n1000 events in the last minute",
      },
    ],
  },
  {
    fixture: "issue__created", headers: { 'Sentry-Hook-Resource': "issue" }, query: { exclude_events: "[\"issue.created\"]" },
    messages: [],
  },
];
