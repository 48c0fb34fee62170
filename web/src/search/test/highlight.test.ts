import { displayContent, displayTopicHtml } from '../highlight';

describe('displayContent', () => {
  const m = { content: '<p>hello world</p>', match_content: '<p><span class="highlight">hello</span> world</p>', subject: 'a <b>', match_subject: 'a &lt;<span class="highlight">b</span>&gt;' };
  it('shows the highlighted copy in a search', () => {
    expect(displayContent(m, [{ operator: 'search' }])).toBe(m.match_content);
    expect(displayContent(m)).toBe(m.match_content);
    expect(displayTopicHtml(m, [{ operator: 'channel' }, { operator: 'search' }])).toBe(m.match_subject);
  });
  it('shows the plain copy elsewhere or without highlights', () => {
    expect(displayContent(m, [{ operator: 'channel' }])).toBe(m.content);
    expect(displayContent(m, [{ operator: 'search', negated: true }])).toBe(m.content);
    expect(displayContent({ content: 'x' }, [{ operator: 'search' }])).toBe('x');
    expect(displayTopicHtml({ subject: 'a <b>' }, [])).toBe('a &lt;b&gt;');
  });
});
