import type { WebhookCase } from '../case';

export const cases: WebhookCase[] = [
  {
    fixture: "confidential_issue_hook__opened", headers: { 'X-Gitlab-Event': "Confidential Issue Hook" },
    messages: [
      {
        topic: "Gitlab Test / issue #23 New API: create/update/delete file",
        content: "Administrator created [Issue #23](http://example.com/diaspora/issues/23).",
      },
    ],
  },
  {
    fixture: "feature_flag_hook", headers: { 'X-Gitlab-Event': "Feature Flag Hook" },
    unsupported: "The 'Feature Flag Hook' event isn't currently supported by the GitLab webhook; ignoring",
  },
  {
    fixture: "issue_hook__closed", headers: { 'X-Gitlab-Event': "Issue Hook" },
    messages: [
      {
        topic: "Gitlab Test / issue #23 New API: create/update/delete file",
        content: "Administrator closed [Issue #23](http://example.com/diaspora/issues/23).",
      },
    ],
  },
  {
    fixture: "issue_hook__labeled", headers: { 'X-Gitlab-Event': "Issue Hook" },
    messages: [],
  },
  {
    fixture: "issue_hook__opened", headers: { 'X-Gitlab-Event': "Issue Hook" },
    messages: [
      {
        topic: "Gitlab Test / issue #23 New API: create/update/delete file",
        content: "Administrator created [Issue #23](http://example.com/diaspora/issues/23) (assigned to User1):\n\n~~~ quote\nCreate new API for manipulations with repository\n~~~",
      },
    ],
  },
  {
    fixture: "issue_hook__reopened", headers: { 'X-Gitlab-Event': "Issue Hook" },
    messages: [
      {
        topic: "Gitlab Test / issue #23 New API: create/update/delete file",
        content: "Administrator reopened [Issue #23](http://example.com/diaspora/issues/23).",
      },
    ],
  },
  {
    fixture: "issue_hook__updated", headers: { 'X-Gitlab-Event': "Issue Hook" },
    messages: [
      {
        topic: "Gitlab Test / issue #23 New API: create/update/delete file",
        content: "Administrator updated [Issue #23](http://example.com/diaspora/issues/23).",
      },
    ],
  },
  {
    fixture: "job_hook__created", headers: { 'X-Gitlab-Event': "Job Hook" },
    messages: [
      {
        topic: "gitlab_test / gitlab-script-trigger",
        content: "[Job test](http://192.168.64.1:3005/gitlab-org/gitlab-test/-/jobs/1977) from stage test was created.",
      },
    ],
  },
  {
    fixture: "job_hook__failed", headers: { 'X-Gitlab-Event': "Job Hook" },
    messages: [
      {
        topic: "gitlab_test / gitlab-script-trigger",
        content: "[Job test](http://192.168.64.1:3005/gitlab-org/gitlab-test/-/jobs/1977) from stage test changed status to **failed**.",
      },
    ],
  },
  {
    fixture: "merge_request_hook__added_commits", headers: { 'X-Gitlab-Event': "Merge Request Hook" },
    messages: [
      {
        topic: "Gitlab Test / MR #1 MS-Viewport",
        content: "Administrator added commit(s) to [MR #1](http://example.com/diaspora/merge_requests/1).",
      },
    ],
  },
  {
    fixture: "merge_request_hook__approval", headers: { 'X-Gitlab-Event': "Merge Request Hook" },
    messages: [],
  },
  {
    fixture: "merge_request_hook__approved", headers: { 'X-Gitlab-Event': "Merge Request Hook" },
    messages: [
      {
        topic: "Gitlab Test / MR #1 MS-Viewport",
        content: "Administrator approved [MR #1](http://example.com/diaspora/merge_requests/1).",
      },
    ],
  },
  {
    fixture: "merge_request_hook__closed", headers: { 'X-Gitlab-Event': "Merge Request Hook" },
    messages: [
      {
        topic: "Gitlab Test / MR #1 MS-Viewport",
        content: "Administrator closed [MR #1](http://example.com/diaspora/merge_requests/1).",
      },
    ],
  },
  {
    fixture: "merge_request_hook__merged", headers: { 'X-Gitlab-Event': "Merge Request Hook" },
    messages: [
      {
        topic: "Gitlab Test / MR #1 MS-Viewport",
        content: "Administrator merged [MR #1](http://example.com/diaspora/merge_requests/1).",
      },
    ],
  },
  {
    fixture: "merge_request_hook__opened", headers: { 'X-Gitlab-Event': "Merge Request Hook" },
    messages: [
      {
        topic: "Gitlab Test / MR #1 MS-Viewport",
        content: "Administrator created [MR #1](http://example.com/diaspora/merge_requests/1) (assigned to User1) from `ms-viewport` to `master`:\n\n~~~ quote\nFixes the viewport on mobile.\n~~~",
      },
    ],
  },
  {
    fixture: "merge_request_hook__reopened", headers: { 'X-Gitlab-Event': "Merge Request Hook" },
    messages: [
      {
        topic: "Gitlab Test / MR #1 MS-Viewport",
        content: "Administrator reopened [MR #1](http://example.com/diaspora/merge_requests/1).",
      },
    ],
  },
  {
    fixture: "merge_request_hook__unapproved", headers: { 'X-Gitlab-Event': "Merge Request Hook" },
    messages: [
      {
        topic: "Gitlab Test / MR #1 MS-Viewport",
        content: "Administrator unapproved [MR #1](http://example.com/diaspora/merge_requests/1).",
      },
    ],
  },
  {
    fixture: "merge_request_hook__updated", headers: { 'X-Gitlab-Event': "Merge Request Hook" },
    messages: [
      {
        topic: "Gitlab Test / MR #1 MS-Viewport",
        content: "Administrator updated [MR #1](http://example.com/diaspora/merge_requests/1) (assigned to User1) from `ms-viewport` to `master`.",
      },
    ],
  },
  {
    fixture: "note_hook__commit", headers: { 'X-Gitlab-Event': "Note Hook" },
    messages: [
      {
        topic: "Gitlab Test",
        content: "Administrator [commented](http://example.com/gitlab-org/gitlab-test/commit/cfe32cf61b73a0d5e9f13e774abde7ff789b1660#note_1243) on [cfe32cf](http://example.com/gitlab-org/gitlab-test/commit/cfe32cf61b73a0d5e9f13e774abde7ff789b1660):\n\n~~~ quote\nThis is a commit comment. How does this work?\n~~~",
      },
    ],
  },
  {
    fixture: "note_hook__issue", headers: { 'X-Gitlab-Event': "Note Hook" },
    messages: [
      {
        topic: "Gitlab Test / issue #17 test",
        content: "Administrator [commented](http://example.com/gitlab-org/gitlab-test/issues/17#note_1241) on [Issue #17](http://example.com/gitlab-org/gitlab-test/issues/17):\n\n~~~ quote\nHello world\n~~~",
      },
    ],
  },
  {
    fixture: "note_hook__merge_request", headers: { 'X-Gitlab-Event': "Note Hook" },
    messages: [
      {
        topic: "Gitlab Test / MR #1 Tempora et eos debitis quae laborum et.",
        content: "Administrator [commented](http://example.com/gitlab-org/gitlab-test/merge_requests/1#note_1244) on [MR #1](http://example.com/gitlab-org/gitlab-test/merge_requests/1):\n\n~~~ quote\nThis MR needs work.\n~~~",
      },
    ],
  },
  {
    fixture: "note_hook__snippet", headers: { 'X-Gitlab-Event': "Note Hook" },
    messages: [
      {
        topic: "Gitlab Test / snippet #53 test",
        content: "Administrator [commented](http://example.com/gitlab-org/gitlab-test/-/snippets/53#note_1245) on [Snippet #53](http://example.com/gitlab-org/gitlab-test/-/snippets/53):\n\n~~~ quote\nIs this snippet doing what it's supposed to be doing?\n~~~",
      },
    ],
  },
  {
    fixture: "pipeline_hook__running", headers: { 'X-Gitlab-Event': "Pipeline Hook" },
    messages: [
      {
        topic: "Gitlab Test / master",
        content: "[Pipeline #31](http://example.com/gitlab-org/gitlab-test/-/pipelines/31) started with job(s):\n* [production](http://example.com/gitlab-org/gitlab-test/-/jobs/380) (deploy) - created\n* [test-image](http://example.com/gitlab-org/gitlab-test/-/jobs/377) (test) - running",
      },
    ],
  },
  {
    fixture: "pipeline_hook__succeeded", headers: { 'X-Gitlab-Event': "Pipeline Hook" },
    messages: [
      {
        topic: "Gitlab Test / master",
        content: "[Pipeline #31](http://example.com/gitlab-org/gitlab-test/-/pipelines/31) changed status to **success** with job(s):\n* [production](http://example.com/gitlab-org/gitlab-test/-/jobs/380) (deploy) - skipped\n* [test-image](http://example.com/gitlab-org/gitlab-test/-/jobs/377) (test) - success",
      },
    ],
  },
  {
    fixture: "push_hook", headers: { 'X-Gitlab-Event': "Push Hook" },
    messages: [
      {
        topic: "Diaspora / master",
        content: "John Smith [pushed](http://example.com/mike/diaspora/-/compare/95790bf891e76fee5e1747ab589903a6a1f80f22...da1560886d4f094c3e6c9ef40349f7d38b5d27d7) 2 commits to branch master. Commits by GitLab dev user (1) and Jordi Mallach (1).\n\n* Update Catalan translation to e38cb41. ([b6568db](http://example.com/mike/diaspora/commit/b6568db1bc1dcd7f8b4d5a946b0b91f9dacd7327))\n* fixed readme ([da15608](http://example.com/mike/diaspora/commit/da1560886d4f094c3e6c9ef40349f7d38b5d27d7))\n[and more commit(s)]",
      },
    ],
  },
  {
    fixture: "push_hook__delete_branch", headers: { 'X-Gitlab-Event': "Push Hook" },
    messages: [
      {
        topic: "Diaspora / feature",
        content: "John Smith deleted branch feature.",
      },
    ],
  },
  {
    fixture: "push_hook__new_branch", headers: { 'X-Gitlab-Event': "Push Hook" },
    messages: [
      {
        topic: "Diaspora / feature",
        content: "John Smith pushed 1 commit to branch feature. Commits by GitLab dev user (1).\n\n* fixed readme ([da15608](http://example.com/mike/diaspora/commit/da1560886d4f094c3e6c9ef40349f7d38b5d27d7))",
      },
    ],
  },
  {
    fixture: "release_hook__created", headers: { 'X-Gitlab-Event': "Release Hook" },
    messages: [
      {
        topic: "release-webhook-example",
        content: "Release [v1.1](https://example.com/gitlab-org/release-webhook-example/-/releases/v1.1) for tag [v1.1](https://example.com/gitlab-org/release-webhook-example/-/tags/v1.1) was created.",
      },
    ],
  },
  {
    fixture: "release_hook__deleted", headers: { 'X-Gitlab-Event': "Release Hook" },
    messages: [
      {
        topic: "release-webhook-example",
        content: "Release v1.1 for tag [v1.1](https://example.com/gitlab-org/release-webhook-example/-/tags/v1.1) was deleted.",
      },
    ],
  },
  {
    fixture: "tag_push_hook", headers: { 'X-Gitlab-Event': "Tag Push Hook" },
    messages: [
      {
        topic: "Example",
        content: "John Smith pushed tag [v1.0.0](http://example.com/jsmith/example/-/tags/v1.0.0).",
      },
    ],
  },
  {
    fixture: "tag_push_hook__removed", headers: { 'X-Gitlab-Event': "Tag Push Hook" },
    messages: [
      {
        topic: "Example",
        content: "John Smith removed tag v1.0.0.",
      },
    ],
  },
  {
    fixture: "wiki_page_hook__created", headers: { 'X-Gitlab-Event': "Wiki Page Hook" },
    messages: [
      {
        topic: "awesome-project",
        content: "Administrator created [wiki page \"Awesome\"](http://example.com/root/awesome-project/-/wikis/awesome).",
      },
    ],
  },
  {
    fixture: "push_hook", headers: { 'X-Gitlab-Event': "Push Hook" }, query: { branches: "main,release" },
    messages: [],
  },
  {
    fixture: "merge_request_hook__merged", headers: { 'X-Gitlab-Event': "Merge Request Hook" }, query: { topic: "reviews" },
    messages: [
      {
        topic: "reviews",
        content: "Administrator merged [MR #1 MS-Viewport](http://example.com/diaspora/merge_requests/1).",
      },
    ],
  },
  {
    fixture: "merge_request_hook__merged", headers: { 'X-Gitlab-Event': "Merge Request Hook" }, query: { only_events: "[\"Push Hook\",\"Merge Request Hook open\"]" },
    messages: [],
  },
];
