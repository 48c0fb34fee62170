/** Any JSON at all, shown as a code block: for tools with no integration of their own. */
import type { Integration } from '../framework';

export const json: Integration = {
  name: 'json',
  displayName: 'JSON formatter',
  allEventTypes: null,
  handle: (_event, req) => ({ topic: 'JSON', content: `\`\`\`json\n${JSON.stringify(req.body.value, null, 2)}\n\`\`\`` }),
};
