import type { WebhookCase } from '../case';

export const cases: WebhookCase[] = [
  {
    fixture: "github_star",
    messages: [
    {
      topic: "JSON",
      content: "```json\n{\n  \"action\": \"created\",\n  \"starred_at\": \"2019-05-15T15:20:40Z\",\n  \"repository\": {\n    \"id\": 186853002,\n    \"full_name\": \"Codertocat/Hello-World\"\n  },\n  \"sender\": {\n    \"login\": \"octocat\",\n    \"id\": 583231\n  }\n}\n```",
    }
    ],
  },
];
