import type { WebhookCase } from '../case';

export const cases: WebhookCase[] = [
  {
    fixture: "check_suite__completed", headers: { 'X-GitHub-Event': "check_suite" },
    messages: [
    {
      topic: "Hello-World",
      content: "Check suite of octoapp for [ec26c3e](https://github.com/Codertocat/Hello-World/commit/ec26c3e57ca3a959ca5aad62de7213c562f8c821) on branch `changes` completed: **failure**.",
    }
    ],
  },
  {
    fixture: "fork", headers: { 'X-GitHub-Event': "fork" },
    messages: [
    {
      topic: "Hello-World",
      content: "octocat forked [Codertocat/Hello-World](https://github.com/Codertocat/Hello-World) to [octocat/Hello-World](https://github.com/octocat/Hello-World).",
    }
    ],
  },
  {
    fixture: "issue_comment", headers: { 'X-GitHub-Event': "issue_comment" },
    messages: [
    {
      topic: "Hello-World / issue #1 Spelling error in the README file",
      content: "Codertocat [commented](https://github.com/Codertocat/Hello-World/issues/1#issuecomment-492700400) on [Issue #1](https://github.com/Codertocat/Hello-World/issues/1):\n\n~~~ quote\nYou are totally right! I'll get this fixed right away.\n~~~",
    }
    ],
  },
  {
    fixture: "issue_comment__deleted", headers: { 'X-GitHub-Event': "issue_comment" },
    messages: [
    {
      topic: "Hello-World / issue #1 Spelling error in the README file",
      content: "Codertocat deleted a comment on [Issue #1](https://github.com/Codertocat/Hello-World/issues/1).",
    }
    ],
  },
  {
    fixture: "issue_comment__pull_request", headers: { 'X-GitHub-Event': "issue_comment" },
    messages: [
    {
      topic: "Hello-World / PR #2 Update the README with new information.",
      content: "Codertocat [commented](https://github.com/Codertocat/Hello-World/pull/2#issuecomment-492700401) on [PR #2](https://github.com/Codertocat/Hello-World/pull/2):\n\n~~~ quote\nLooks good to me.\n~~~",
    }
    ],
  },
  {
    fixture: "issues__assigned", headers: { 'X-GitHub-Event': "issues" },
    messages: [
    {
      topic: "Hello-World / issue #1 Spelling error in the README file",
      content: "Codertocat assigned octocat to [Issue #1](https://github.com/Codertocat/Hello-World/issues/1).",
    }
    ],
  },
  {
    fixture: "issues__closed", headers: { 'X-GitHub-Event': "issues" },
    messages: [
    {
      topic: "Hello-World / issue #1 Spelling error in the README file",
      content: "Codertocat closed [Issue #1](https://github.com/Codertocat/Hello-World/issues/1) as completed.",
    }
    ],
  },
  {
    fixture: "issues__closed_not_planned", headers: { 'X-GitHub-Event': "issues" },
    messages: [
    {
      topic: "Hello-World / issue #1 Spelling error in the README file",
      content: "Codertocat closed [Issue #1](https://github.com/Codertocat/Hello-World/issues/1) as not planned.",
    }
    ],
  },
  {
    fixture: "issues__edited", headers: { 'X-GitHub-Event': "issues" },
    messages: [
    {
      topic: "Hello-World / issue #1 Spelling error in the README file",
      content: "Codertocat edited [Issue #1](https://github.com/Codertocat/Hello-World/issues/1):\n\n~~~ quote\nIt looks like you accidentally spelled 'commit' with two 't's.\n~~~",
    }
    ],
  },
  {
    fixture: "issues__opened", headers: { 'X-GitHub-Event': "issues" },
    messages: [
    {
      topic: "Hello-World / issue #1 Spelling error in the README file",
      content: "Codertocat opened [Issue #1](https://github.com/Codertocat/Hello-World/issues/1):\n\n~~~ quote\nIt looks like you accidently spelled 'commit' with two 't's.\n~~~",
    }
    ],
  },
  {
    fixture: "issues__reopened", headers: { 'X-GitHub-Event': "issues" },
    messages: [
    {
      topic: "Hello-World / issue #1 Spelling error in the README file",
      content: "Codertocat reopened [Issue #1](https://github.com/Codertocat/Hello-World/issues/1).",
    }
    ],
  },
  { fixture: "issues__unsupported_action", headers: { 'X-GitHub-Event': "issues" }, unsupported: "The 'issues.typed' event isn't currently supported by the GitHub webhook; ignoring" },
  { fixture: "member", headers: { 'X-GitHub-Event': "member" }, unsupported: "The 'member' event isn't currently supported by the GitHub webhook; ignoring" },
  {
    fixture: "ping", headers: { 'X-GitHub-Event': "ping" },
    messages: [
    {
      topic: "Hello-World",
      content: "GitHub webhook has been successfully configured by Codertocat.",
    }
    ],
  },
  {
    fixture: "ping__organization", headers: { 'X-GitHub-Event': "ping" },
    messages: [
    {
      topic: "Octocoders",
      content: "GitHub webhook has been successfully configured by Codertocat.",
    }
    ],
  },
  {
    fixture: "pull_request__assigned", headers: { 'X-GitHub-Event': "pull_request" },
    messages: [
    {
      topic: "Hello-World / PR #2 Update the README with new information.",
      content: "Codertocat assigned octocat to [PR #2](https://github.com/Codertocat/Hello-World/pull/2).",
    }
    ],
  },
  {
    fixture: "pull_request__closed", headers: { 'X-GitHub-Event': "pull_request" },
    messages: [
    {
      topic: "Hello-World / PR #2 Update the README with new information.",
      content: "Codertocat closed without merge [PR #2](https://github.com/Codertocat/Hello-World/pull/2).",
    }
    ],
  },
  {
    fixture: "pull_request__edited", headers: { 'X-GitHub-Event': "pull_request" },
    messages: [
    {
      topic: "Hello-World / PR #2 Update the README with new information.",
      content: "Codertocat edited [PR #2](https://github.com/Codertocat/Hello-World/pull/2):\n\n~~~ quote\nNow with a test.\n~~~",
    }
    ],
  },
  { fixture: "pull_request__labeled", headers: { 'X-GitHub-Event': "pull_request" }, messages: [] },
  {
    fixture: "pull_request__merged", headers: { 'X-GitHub-Event': "pull_request" },
    messages: [
    {
      topic: "Hello-World / PR #2 Update the README with new information.",
      content: "Codertocat merged [PR #2](https://github.com/Codertocat/Hello-World/pull/2).",
    }
    ],
  },
  {
    fixture: "pull_request__opened", headers: { 'X-GitHub-Event': "pull_request" },
    messages: [
    {
      topic: "Hello-World / PR #2 Update the README with new information.",
      content: "Codertocat opened [PR #2](https://github.com/Codertocat/Hello-World/pull/2) from `changes` to `master`:\n\n~~~ quote\nThis is a pretty simple change that we need to pull into master.\n~~~",
    }
    ],
  },
  {
    fixture: "pull_request__opened_with_assignees", headers: { 'X-GitHub-Event': "pull_request" },
    messages: [
    {
      topic: "Hello-World / PR #3 Add a licence",
      content: "Codertocat opened [PR #3](https://github.com/Codertocat/Hello-World/pull/3) (assigned to octocat and Codertocat) from `changes` to `master`.",
    }
    ],
  },
  {
    fixture: "pull_request__ready_for_review", headers: { 'X-GitHub-Event': "pull_request" },
    messages: [
    {
      topic: "Hello-World / PR #2 Update the README with new information.",
      content: "Codertocat marked [PR #2](https://github.com/Codertocat/Hello-World/pull/2) as ready for review.",
    }
    ],
  },
  {
    fixture: "pull_request__reopened", headers: { 'X-GitHub-Event': "pull_request" },
    messages: [
    {
      topic: "Hello-World / PR #2 Update the README with new information.",
      content: "Codertocat reopened [PR #2](https://github.com/Codertocat/Hello-World/pull/2) from `changes` to `master`.",
    }
    ],
  },
  {
    fixture: "pull_request__review_requested", headers: { 'X-GitHub-Event': "pull_request" },
    messages: [
    {
      topic: "Hello-World / PR #2 Update the README with new information.",
      content: "Codertocat requested octocat for a review on [PR #2](https://github.com/Codertocat/Hello-World/pull/2).",
    }
    ],
  },
  {
    fixture: "pull_request__synchronize", headers: { 'X-GitHub-Event': "pull_request" },
    messages: [
    {
      topic: "Hello-World / PR #2 Update the README with new information.",
      content: "Codertocat updated [PR #2](https://github.com/Codertocat/Hello-World/pull/2).",
    }
    ],
  },
  {
    fixture: "pull_request_review__approved", headers: { 'X-GitHub-Event': "pull_request_review" },
    messages: [
    {
      topic: "Hello-World / PR #2 Update the README with new information.",
      content: "octocat [approved](https://github.com/Codertocat/Hello-World/pull/2#pullrequestreview-237895671) [PR #2](https://github.com/Codertocat/Hello-World/pull/2).",
    }
    ],
  },
  {
    fixture: "pull_request_review__changes_requested", headers: { 'X-GitHub-Event': "pull_request_review" },
    messages: [
    {
      topic: "Hello-World / PR #2 Update the README with new information.",
      content: "octocat [requested changes on](https://github.com/Codertocat/Hello-World/pull/2#pullrequestreview-237895671) [PR #2](https://github.com/Codertocat/Hello-World/pull/2):\n\n~~~ quote\nPlease add a test for the empty case.\n~~~",
    }
    ],
  },
  {
    fixture: "pull_request_review_comment", headers: { 'X-GitHub-Event': "pull_request_review_comment" },
    messages: [
    {
      topic: "Hello-World / PR #2 Update the README with new information.",
      content: "Codertocat [commented](https://github.com/Codertocat/Hello-World/pull/2#discussion_r284312630) on [PR #2](https://github.com/Codertocat/Hello-World/pull/2):\n\n~~~ quote\nMaybe you should use more emoji on this line.\n~~~",
    }
    ],
  },
  {
    fixture: "push__1_commit", headers: { 'X-GitHub-Event': "push" },
    messages: [
    {
      topic: "Hello-World / master",
      content: "Codertocat [pushed](https://github.com/Codertocat/Hello-World/compare/6113728f27ae...a10867b14bb7) 1 commit to branch master.\n\n* Update README.md ([a10867b](https://github.com/Codertocat/Hello-World/commit/a10867b14bb761a232cd80139fbd4c0d33264240))",
    }
    ],
  },
  {
    fixture: "push__delete_branch", headers: { 'X-GitHub-Event': "push" },
    messages: [
    {
      topic: "Hello-World / feature",
      content: "Codertocat deleted branch feature.",
    }
    ],
  },
  {
    fixture: "push__force_1_commit", headers: { 'X-GitHub-Event': "push" },
    messages: [
    {
      topic: "Hello-World / master",
      content: "Codertocat [force pushed](https://github.com/Codertocat/Hello-World/compare/6113728f27ae...a10867b14bb7) to branch master. Head is now a10867b.",
    }
    ],
  },
  {
    fixture: "push__multiple_committers", headers: { 'X-GitHub-Event': "push" },
    messages: [
    {
      topic: "Hello-World / master",
      content: "Codertocat [pushed](https://github.com/Codertocat/Hello-World/compare/6113728f27ae...b1b8f5ac3c5d) 3 commits to branch master. Commits by octocat (2) and Codertocat (1).\n\n* Add the first test ([a10867b](https://github.com/Codertocat/Hello-World/commit/a10867b14bb761a232cd80139fbd4c0d33264240))\n* Fix the build on Windows ([b1b8f5a](https://github.com/Codertocat/Hello-World/commit/b1b8f5ac3c5d6e2f1a2b3c4d5e6f708192a3b4c5))\n* Bump version ([c2c3d4e](https://github.com/Codertocat/Hello-World/commit/c2c3d4e5f60718293a4b5c6d7e8f901a2b3c4d5e))",
    }
    ],
  },
  {
    fixture: "push__new_branch", headers: { 'X-GitHub-Event': "push" },
    messages: [
    {
      topic: "Hello-World / feature",
      content: "Codertocat created branch [feature](https://github.com/Codertocat/Hello-World/compare/000000000000...6113728f27ae).",
    }
    ],
  },
  {
    fixture: "push__tag", headers: { 'X-GitHub-Event': "push" },
    messages: [
    {
      topic: "Hello-World",
      content: "Codertocat pushed tag [v1.0](https://github.com/Codertocat/Hello-World/compare/000000000000...6113728f27ae).",
    }
    ],
  },
  { fixture: "release__created", headers: { 'X-GitHub-Event': "release" }, messages: [] },
  {
    fixture: "release__published", headers: { 'X-GitHub-Event': "release" },
    messages: [
    {
      topic: "Hello-World / 0.0.1 v0.0.1",
      content: "Codertocat published release [v0.0.1](https://github.com/Codertocat/Hello-World/releases/tag/0.0.1) for tag 0.0.1.",
    }
    ],
  },
  {
    fixture: "release__published_without_name", headers: { 'X-GitHub-Event': "release" },
    messages: [
    {
      topic: "Hello-World / v2.1.0",
      content: "Codertocat published release [v2.1.0](https://github.com/Codertocat/Hello-World/releases/tag/v2.1.0) for tag v2.1.0.",
    }
    ],
  },
  {
    fixture: "star", headers: { 'X-GitHub-Event': "star" },
    messages: [
    {
      topic: "Hello-World",
      content: "octocat starred the repository [Codertocat/Hello-World](https://github.com/Codertocat/Hello-World).",
    }
    ],
  },
  {
    fixture: "watch", headers: { 'X-GitHub-Event': "watch" },
    messages: [
    {
      topic: "Hello-World",
      content: "octocat starred the repository [Codertocat/Hello-World](https://github.com/Codertocat/Hello-World).",
    }
    ],
  },
  {
    fixture: "workflow_run__failure", headers: { 'X-GitHub-Event': "workflow_run" },
    messages: [
    {
      topic: "Hello-World / Build",
      content: "[Workflow Build run #562](https://github.com/Codertocat/Hello-World/actions/runs/30433642) on branch `master` (push) finished: **failure** in 2m 12s.\nCommit: acb5820 Update README.md",
    }
    ],
  },
  { fixture: "workflow_run__requested", headers: { 'X-GitHub-Event': "workflow_run" }, messages: [] },
  {
    fixture: "workflow_run__success", headers: { 'X-GitHub-Event': "workflow_run" },
    messages: [
    {
      topic: "Hello-World / Build",
      content: "[Workflow Build run #562](https://github.com/Codertocat/Hello-World/actions/runs/30433642) on branch `master` (push) succeeded in 2m 12s.\nCommit: acb5820 Update README.md",
    }
    ],
  },
  // The user's own topic: the message then names the item in full.
  {
    fixture: "pull_request__opened", headers: { 'X-GitHub-Event': "pull_request" }, query: { topic: "reviews" },
    messages: [
    {
      topic: "reviews",
      content: "Codertocat opened [PR #2 Update the README with new information.](https://github.com/Codertocat/Hello-World/pull/2) from `changes` to `master`:\n\n~~~ quote\nThis is a pretty simple change that we need to pull into master.\n~~~",
    }
    ],
  },
  // Pushes to branches the URL does not name are left out.
  { fixture: "push__1_commit", headers: { 'X-GitHub-Event': "push" }, query: { branches: "feature,release" }, messages: [] },
  {
    fixture: "push__new_branch", headers: { 'X-GitHub-Event': "push" }, query: { branches: "feature,release" },
    messages: [
    {
      topic: "Hello-World / feature",
      content: "Codertocat created branch [feature](https://github.com/Codertocat/Hello-World/compare/000000000000...6113728f27ae).",
    }
    ],
  },
  // Further actions of the same events.
  {
    fixture: "check_run__completed", headers: { 'X-GitHub-Event': "check_run" },
    messages: [
    {
      topic: "Hello-World",
      content: "Check [Octocoders-linter](https://github.com/Codertocat/Hello-World/runs/128620228) for ec26c3e completed: **success**.",
    }
    ],
  },
  {
    fixture: "issue_comment__edited", headers: { 'X-GitHub-Event': "issue_comment" },
    messages: [
    {
      topic: "Hello-World / issue #1 Spelling error in the README file",
      content: "Codertocat edited [a comment](https://github.com/Codertocat/Hello-World/issues/1#issuecomment-492700400) on [Issue #1](https://github.com/Codertocat/Hello-World/issues/1):\n\n~~~ quote\nYou are totally right! Fixed in #2.\n~~~",
    }
    ],
  },
  {
    fixture: "issues__transferred", headers: { 'X-GitHub-Event': "issues" },
    messages: [
    {
      topic: "Hello-World / issue #1 Spelling error in the README file",
      content: "Codertocat transferred [Issue #1](https://github.com/Codertocat/Hello-World/issues/1) to [Codertocat/Hello-World-Docs](https://github.com/Codertocat/Hello-World/issues/4).",
    }
    ],
  },
  {
    fixture: "pull_request__converted_to_draft", headers: { 'X-GitHub-Event': "pull_request" },
    messages: [
    {
      topic: "Hello-World / PR #2 Update the README with new information.",
      content: "Codertocat converted [PR #2](https://github.com/Codertocat/Hello-World/pull/2) to draft.",
    }
    ],
  },
  {
    fixture: "pull_request__unassigned", headers: { 'X-GitHub-Event': "pull_request" },
    messages: [
    {
      topic: "Hello-World / PR #2 Update the README with new information.",
      content: "Codertocat unassigned octocat from [PR #2](https://github.com/Codertocat/Hello-World/pull/2).",
    }
    ],
  },
  {
    fixture: "pull_request_review__commented", headers: { 'X-GitHub-Event': "pull_request_review" },
    messages: [
    {
      topic: "Hello-World / PR #2 Update the README with new information.",
      content: "octocat [reviewed](https://github.com/Codertocat/Hello-World/pull/2#pullrequestreview-237895671) [PR #2](https://github.com/Codertocat/Hello-World/pull/2):\n\n~~~ quote\nNice, one question inline.\n~~~",
    }
    ],
  },
  { fixture: "pull_request_review__dismissed", headers: { 'X-GitHub-Event': "pull_request_review" }, messages: [] },
  { fixture: "release__prereleased", headers: { 'X-GitHub-Event': "release" }, messages: [] },
  {
    fixture: "release__published_prerelease", headers: { 'X-GitHub-Event': "release" },
    messages: [
    {
      topic: "Hello-World / 0.1.0-rc.1 v0.1.0-rc.1",
      content: "Codertocat published pre-release [v0.1.0-rc.1](https://github.com/Codertocat/Hello-World/releases/tag/0.1.0-rc.1) for tag 0.1.0-rc.1.",
    }
    ],
  },
];
