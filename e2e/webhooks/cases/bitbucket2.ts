import type { WebhookCase } from '../case';

export const cases: WebhookCase[] = [
  {
    fixture: "fork", headers: { 'X-Event-Key': "repo:fork" },
    messages: [
      {
        topic: "repository-name",
        content: "Eeshan Garg forked the repository into [eeshangarg/repository-name](https://bitbucket.org/eeshangarg/repository-name).",
      },
    ],
  },
  {
    fixture: "issue__comment_created", headers: { 'X-Event-Key': "issue:comment_created" },
    messages: [
      {
        topic: "repository-name / issue #1 Bug",
        content: "Eeshan Garg [commented](https://bitbucket.org/kolaszek/repository-name/issues/1#comment-29) on [Issue #1](https://bitbucket.org/kolaszek/repository-name/issues/1/bug):\n\n~~~ quote\nIt happens on Firefox only.\n~~~",
      },
    ],
  },
  {
    fixture: "issue__created", headers: { 'X-Event-Key': "issue:created" },
    messages: [
      {
        topic: "repository-name / issue #1 Bug",
        content: "Tomasz Kolek created [Issue #1](https://bitbucket.org/kolaszek/repository-name/issues/1/bug) (assigned to Eeshan Garg):\n\n~~~ quote\nSuspicious behavior on the login page\n~~~",
      },
    ],
  },
  {
    fixture: "issue__updated", headers: { 'X-Event-Key': "issue:updated" },
    messages: [
      {
        topic: "repository-name / issue #1 Bug",
        content: "Tomasz Kolek changed the state of [Issue #1](https://bitbucket.org/kolaszek/repository-name/issues/1/bug) to **resolved**.",
      },
    ],
  },
  {
    fixture: "pullrequest__approved", headers: { 'X-Event-Key': "pullrequest:approved" },
    messages: [
      {
        topic: "repository-name / PR #1 Add README",
        content: "Eeshan Garg approved [PR #1](https://bitbucket.org/kolaszek/repository-name/pull-requests/1).",
      },
    ],
  },
  {
    fixture: "pullrequest__changes_request_created", headers: { 'X-Event-Key': "pullrequest:changes_request_created" },
    messages: [
      {
        topic: "repository-name / PR #1 Add README",
        content: "Eeshan Garg requested changes on [PR #1](https://bitbucket.org/kolaszek/repository-name/pull-requests/1).",
      },
    ],
  },
  {
    fixture: "pullrequest__comment_created", headers: { 'X-Event-Key': "pullrequest:comment_created" },
    messages: [
      {
        topic: "repository-name / PR #1 Add README",
        content: "Eeshan Garg [commented](https://bitbucket.org/kolaszek/repository-name/pull-requests/1/_/diff#comment-17) on [PR #1](https://bitbucket.org/kolaszek/repository-name/pull-requests/1):\n\n~~~ quote\nCould you add an example?\n~~~",
      },
    ],
  },
  {
    fixture: "pullrequest__comment_deleted", headers: { 'X-Event-Key': "pullrequest:comment_deleted" },
    messages: [
      {
        topic: "repository-name / PR #1 Add README",
        content: "Eeshan Garg deleted [a comment](https://bitbucket.org/kolaszek/repository-name/pull-requests/1/_/diff#comment-17) on [PR #1](https://bitbucket.org/kolaszek/repository-name/pull-requests/1).",
      },
    ],
  },
  {
    fixture: "pullrequest__comment_updated", headers: { 'X-Event-Key': "pullrequest:comment_updated" },
    messages: [
      {
        topic: "repository-name / PR #1 Add README",
        content: "Eeshan Garg edited [a comment](https://bitbucket.org/kolaszek/repository-name/pull-requests/1/_/diff#comment-17) on [PR #1](https://bitbucket.org/kolaszek/repository-name/pull-requests/1):\n\n~~~ quote\nCould you add an example of the build?\n~~~",
      },
    ],
  },
  {
    fixture: "pullrequest__created", headers: { 'X-Event-Key': "pullrequest:created" },
    messages: [
      {
        topic: "repository-name / PR #1 Add README",
        content: "Tomasz Kolek created [PR #1](https://bitbucket.org/kolaszek/repository-name/pull-requests/1) from `readme` to `master`:\n\n~~~ quote\nExplains what the repository is for.\n~~~",
      },
    ],
  },
  {
    fixture: "pullrequest__fulfilled", headers: { 'X-Event-Key': "pullrequest:fulfilled" },
    messages: [
      {
        topic: "repository-name / PR #1 Add README",
        content: "Tomasz Kolek merged [PR #1](https://bitbucket.org/kolaszek/repository-name/pull-requests/1) from `readme` to `master`.",
      },
    ],
  },
  {
    fixture: "pullrequest__rejected", headers: { 'X-Event-Key': "pullrequest:rejected" },
    messages: [
      {
        topic: "repository-name / PR #1 Add README",
        content: "Tomasz Kolek declined [PR #1](https://bitbucket.org/kolaszek/repository-name/pull-requests/1).",
      },
    ],
  },
  {
    fixture: "pullrequest__unapproved", headers: { 'X-Event-Key': "pullrequest:unapproved" },
    messages: [
      {
        topic: "repository-name / PR #1 Add README",
        content: "Eeshan Garg unapproved [PR #1](https://bitbucket.org/kolaszek/repository-name/pull-requests/1).",
      },
    ],
  },
  {
    fixture: "pullrequest__updated", headers: { 'X-Event-Key': "pullrequest:updated" },
    messages: [
      {
        topic: "repository-name / PR #1 Add README",
        content: "Tomasz Kolek updated [PR #1](https://bitbucket.org/kolaszek/repository-name/pull-requests/1):\n\n~~~ quote\nExplains what the repository is for, and how to build it.\n~~~",
      },
    ],
  },
  {
    fixture: "push", headers: { 'X-Event-Key': "repo:push" },
    messages: [
      {
        topic: "repository-name / master",
        content: "Tomasz Kolek [pushed](https://bitbucket.org/kolaszek/repository-name/branches/compare/a0bd0fcf1c0f8f6c3bd43e0c8b2a26e4dc6b7a61..cc8f0fb1b0b6f0e31b7f1e5a8dc4c9d4f5e6a7b8) 2 commits to branch master. Commits by Jane Roe (1) and Tomasz Kolek (1).\n\n* Fix typo in README ([a0bd0fc](https://bitbucket.org/kolaszek/repository-name/commits/a0bd0fcf1c0f8f6c3bd43e0c8b2a26e4dc6b7a61))\n* Add .gitignore ([e0e377d](https://bitbucket.org/kolaszek/repository-name/commits/e0e377d2b2a3ba2fd0ce1d9ea66c7e6f7b8d1e2f))",
      },
    ],
  },
  {
    fixture: "push__delete_branch", headers: { 'X-Event-Key': "repo:push" },
    messages: [
      {
        topic: "repository-name / feature",
        content: "Tomasz Kolek deleted branch feature.",
      },
    ],
  },
  {
    fixture: "push__force", headers: { 'X-Event-Key': "repo:push" },
    messages: [
      {
        topic: "repository-name / master",
        content: "Tomasz Kolek [force pushed](https://bitbucket.org/kolaszek/repository-name/branches/compare/a0bd0fcf1c0f8f6c3bd43e0c8b2a26e4dc6b7a61..cc8f0fb1b0b6f0e31b7f1e5a8dc4c9d4f5e6a7b8) to branch master. Head is now a0bd0fc.",
      },
    ],
  },
  {
    fixture: "push__remove_tag", headers: { 'X-Event-Key': "repo:push" },
    messages: [
      {
        topic: "repository-name",
        content: "Tomasz Kolek removed tag [v0.9](https://bitbucket.org/kolaszek/repository-name/commits/tag/v0.9).",
      },
    ],
  },
  {
    fixture: "push__tag", headers: { 'X-Event-Key': "repo:push" },
    messages: [
      {
        topic: "repository-name",
        content: "Tomasz Kolek pushed tag [v1.0](https://bitbucket.org/kolaszek/repository-name/commits/tag/v1.0).",
      },
    ],
  },
  {
    fixture: "repo__commit_comment_created", headers: { 'X-Event-Key': "repo:commit_comment_created" },
    messages: [
      {
        topic: "repository-name",
        content: "Eeshan Garg [commented](https://bitbucket.org/kolaszek/repository-name/commits/a0bd0fcf1c0f8f6c3bd43e0c8b2a26e4dc6b7a61#comment-3) on [a0bd0fc](https://bitbucket.org/kolaszek/repository-name/commits/a0bd0fcf1c0f8f6c3bd43e0c8b2a26e4dc6b7a61):\n\n~~~ quote\nNice fix!\n~~~",
      },
    ],
  },
  {
    fixture: "repo__commit_status_updated", headers: { 'X-Event-Key': "repo:commit_status_updated" },
    messages: [
      {
        topic: "repository-name",
        content: "[Build #12](https://bitbucket.org/kolaszek/repository-name/addon/pipelines/home#!/results/12) changed the status of [a0bd0fc](https://bitbucket.org/kolaszek/repository-name/commits/a0bd0fcf1c0f8f6c3bd43e0c8b2a26e4dc6b7a61) to **SUCCESSFUL**.",
      },
    ],
  },
  {
    fixture: "repo__transfer", headers: { 'X-Event-Key': "repo:transfer" },
    unsupported: "The 'repo:transfer' event isn't currently supported by the Bitbucket webhook; ignoring",
  },
  {
    fixture: "repo__updated", headers: { 'X-Event-Key': "repo:updated" },
    messages: [
      {
        topic: "repository-name",
        content: "Tomasz Kolek changed the name of the **repository-name** repository from **old-name** to **repository-name**.\nTomasz Kolek changed the website of the **repository-name** repository to **https://example.com**.\nTomasz Kolek changed the full name of the **repository-name** repository from **kolaszek/old-name** to **kolaszek/repository-name**.",
      },
    ],
  },
  {
    fixture: "push", headers: { 'X-Event-Key': "repo:push" }, query: { branches: "release" },
    messages: [],
  },
  {
    fixture: "pullrequest__fulfilled", headers: { 'X-Event-Key': "pullrequest:fulfilled" }, query: { topic: "reviews" },
    messages: [
      {
        topic: "reviews",
        content: "Tomasz Kolek merged [PR #1 Add README](https://bitbucket.org/kolaszek/repository-name/pull-requests/1) from `readme` to `master`.",
      },
    ],
  },
  {
    fixture: "pullrequest__approved", headers: { 'X-Event-Key': "pullrequest:approved" }, query: { exclude_events: "[\"pull_request_*approved\"]" },
    messages: [],
  },
];
