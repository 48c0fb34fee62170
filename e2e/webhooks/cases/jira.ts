import type { WebhookCase } from '../case';

export const cases: WebhookCase[] = [
  {
    fixture: "comment_created",
    messages: [
      {
        topic: "JRA-20002: I feel the need for speed",
        content: "Leo Franchi commented on [JRA-20002: I feel the need for speed](https://jira.atlassian.com/browse/JRA-20002):\n\n~~~ quote\nHere is a comment regarding **brollins**'s issue:\n```quote\nload it faster\n```\nSee [the docs](https://confluence.atlassian.com/jira) !\n~~~",
      },
    ],
  },
  {
    fixture: "comment_deleted",
    messages: [
      {
        topic: "JRA-20002: I feel the need for speed",
        content: "Leo Franchi deleted a comment from [JRA-20002: I feel the need for speed](https://jira.atlassian.com/browse/JRA-20002).",
      },
    ],
  },
  {
    fixture: "comment_updated",
    messages: [
      {
        topic: "JRA-20002: I feel the need for speed",
        content: "Leo Franchi edited a comment on [JRA-20002: I feel the need for speed](https://jira.atlassian.com/browse/JRA-20002):\n\n~~~ quote\nEdited:\n```\nspeed();\n```\n~~~",
      },
    ],
  },
  {
    fixture: "issue_created",
    messages: [
      {
        topic: "JRA-20002: I feel the need for speed",
        content: "Bryan Rollins [Atlassian] created [JRA-20002: I feel the need for speed](https://jira.atlassian.com/browse/JRA-20002):\n\n* **Type**: New Feature\n* **Priority**: Minor\n* **Assignee**: Leo Franchi\n\n~~~ quote\nMake the issue nav load **10x** faster, see `IssueNavAction`.\n~~~",
      },
    ],
  },
  {
    fixture: "issue_deleted",
    messages: [
      {
        topic: "JRA-20002: I feel the need for speed",
        content: "Bryan Rollins [Atlassian] deleted [JRA-20002: I feel the need for speed](https://jira.atlassian.com/browse/JRA-20002).",
      },
    ],
  },
  {
    fixture: "issue_updated",
    messages: [
      {
        topic: "JRA-20002: I feel the need for speed",
        content: "Bryan Rollins [Atlassian] updated [JRA-20002: I feel the need for speed](https://jira.atlassian.com/browse/JRA-20002) (assigned to **Leo Franchi**):\n\n* Changed summary from **What is going on here?????** to **I feel the need for speed**\n* Changed issuetype from **Improvement** to **New Feature**",
      },
    ],
  },
  {
    fixture: "issue_updated__commented",
    messages: [
      {
        topic: "JRA-20002: I feel the need for speed",
        content: "Leo Franchi commented on [JRA-20002: I feel the need for speed](https://jira.atlassian.com/browse/JRA-20002) (assigned to **Leo Franchi**):\n\n~~~ quote\nHere is a comment regarding **brollins**'s issue:\n```quote\nload it faster\n```\nSee [the docs](https://confluence.atlassian.com/jira) !\n~~~",
      },
    ],
  },
  {
    fixture: "issue_updated__status",
    messages: [
      {
        topic: "JRA-20002: I feel the need for speed",
        content: "Leo Franchi updated [JRA-20002: I feel the need for speed](https://jira.atlassian.com/browse/JRA-20002) (assigned to **Leo Franchi**):\n\n* Changed status from **Open** to **In Progress**",
      },
    ],
  },
  {
    fixture: "issue_updated__unassigned",
    messages: [
      {
        topic: "JRA-20002: I feel the need for speed",
        content: "Bryan Rollins [Atlassian] updated [JRA-20002: I feel the need for speed](https://jira.atlassian.com/browse/JRA-20002):\n\n* Changed assignee from **Leo Franchi** to nothing",
      },
    ],
  },
  {
    fixture: "project_created",
    unsupported: "The 'project_created' event isn't currently supported by the Jira webhook; ignoring",
  },
  {
    fixture: "worklog_created",
    messages: [],
  },
  {
    fixture: "issue_updated", query: { topic: "tracker", only_events: "[\"jira:issue_*\"]" },
    messages: [
      {
        topic: "tracker",
        content: "Bryan Rollins [Atlassian] updated [JRA-20002: I feel the need for speed](https://jira.atlassian.com/browse/JRA-20002) (assigned to **Leo Franchi**):\n\n* Changed summary from **What is going on here?????** to **I feel the need for speed**\n* Changed issuetype from **Improvement** to **New Feature**",
      },
    ],
  },
  {
    fixture: "comment_created", query: { only_events: "[\"jira:issue_*\"]" },
    messages: [],
  },
];
