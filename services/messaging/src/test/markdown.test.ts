// The renderer is a pure function of source and context: these tests build the context by
// hand instead of from a database.
import { emptyRenderContext, renderMarkdown } from '../markdown';
import type { RenderContext } from '../markdown';

function ctx(): RenderContext {
  const c = emptyRenderContext('http://chat.test');
  const hamlet = { id: 10, fullName: 'King Hamlet', email: 'hamlet@chat.test' };
  const twins = [
    { id: 11, fullName: 'Twin', email: 'a@chat.test' },
    { id: 12, fullName: 'Twin', email: 'b@chat.test' },
  ];
  c.usersByName.set('king hamlet', [hamlet]);
  c.usersByName.set('twin', twins);
  for (const u of [hamlet, ...twins]) c.usersById.set(u.id, u);
  c.groupsByName.set('support', { id: 5, name: 'support' });
  c.streamsByName.set('verona', { id: 3, name: 'Verona' });
  c.linkifiers.push({ id: 1, pattern: '#(?P<id>[0-9]+)', urlTemplate: 'https://github.com/org/repo/issues/{id}' });
  return c;
}

describe('markdown dialect', () => {
  it('renders user mentions, silent mentions and ambiguous names', () => {
    const r = renderMarkdown('hi @**King Hamlet** and @_**king hamlet** and @**Twin** and @**Twin|12**', ctx());
    expect(r.html).toBe(
      '<p>hi <span class="user-mention" data-user-id="10">@King Hamlet</span> and ' +
        '<span class="user-mention silent" data-user-id="10">King Hamlet</span> and @<strong>Twin</strong> and ' +
        '<span class="user-mention" data-user-id="12">@Twin</span></p>',
    );
    expect([...r.mentionedUserIds]).toEqual([10, 12]);
  });

  it('silences the mentions a quote repeats, in a > quote and in a quote fence, as the family does', () => {
    const quoted = renderMarkdown('> @**King Hamlet** asked @*support* and @**all**\n\nso @**Twin|12**', ctx());
    expect(quoted.html).toBe(
      '<blockquote>\n<p><span class="user-mention silent" data-user-id="10">King Hamlet</span> asked ' +
        '<span class="user-group-mention silent" data-user-group-id="5">support</span> and ' +
        '<span class="user-mention channel-wildcard-mention silent" data-user-id="*">all</span></p>\n</blockquote>\n' +
        '<p>so <span class="user-mention" data-user-id="12">@Twin</span></p>',
    );
    expect([...quoted.mentionedUserIds]).toEqual([12]);
    expect([...quoted.mentionedGroupIds]).toEqual([]);
    expect(quoted.streamWildcard).toBeFalsy();
    const fenced = renderMarkdown('```quote\n@**King Hamlet** said so\n```', ctx());
    expect(fenced.html).toBe('<blockquote>\n<p><span class="user-mention silent" data-user-id="10">King Hamlet</span> said so</p>\n</blockquote>');
    expect([...fenced.mentionedUserIds]).toEqual([]);
  });

  it('renders wildcard and group mentions', () => {
    const r = renderMarkdown('@**all** @**topic** @*support*', ctx());
    expect(r.html).toBe(
      '<p><span class="user-mention channel-wildcard-mention" data-user-id="*">@all</span> ' +
        '<span class="topic-mention">@topic</span> <span class="user-group-mention" data-user-group-id="5">@support</span></p>',
    );
    expect(r).toMatchObject({ streamWildcard: true, topicWildcard: true });
    expect([...r.mentionedGroupIds]).toEqual([5]);
  });

  it('leaves mentions in code alone', () => {
    const r = renderMarkdown('`@**King Hamlet**`', ctx());
    expect(r.html).toBe('<p><code>@**King Hamlet**</code></p>');
    expect(r.mentionedUserIds.size).toBe(0);
  });

  it('links channels and topics', () => {
    expect(renderMarkdown('#**Verona** and #**verona>the castle**', ctx()).html).toBe(
      '<p><a class="stream" data-stream-id="3" href="/#narrow/channel/3-Verona">#Verona</a> and ' +
        '<a class="stream-topic" data-stream-id="3" href="/#narrow/channel/3-Verona/topic/the.20castle">#Verona &gt; the castle</a></p>',
    );
  });

  it('renders emoji by name and typed as characters', () => {
    const html = renderMarkdown(':heart: 👍', ctx()).html;
    expect(html).toBe(
      '<p><span aria-label="heart" class="emoji emoji-2764" role="img" title="heart">:heart:</span> ' +
        '<span aria-label="+1" class="emoji emoji-1f44d" role="img" title="+1">:+1:</span></p>',
    );
    expect(renderMarkdown('a:notanemoji: 10:30:00', ctx()).html).toBe('<p>a:notanemoji: 10:30:00</p>');
  });

  it("uses the family's names: by any name or alias, typed emoji by canonical name and the family's code", () => {
    const span = (name: string, code: string) =>
      `<span aria-label="${name.replace(/_/g, ' ')}" class="emoji emoji-${code}" role="img" title="${name.replace(/_/g, ' ')}">:${name}:</span>`;
    expect(renderMarkdown(':smile: :thumbs_up: :big_smile: 🙂 😄 🕵️‍♂️ ❤️', ctx()).html).toBe(
      `<p>${span('smile', '1f642')} ${span('thumbs_up', '1f44d')} ${span('big_smile', '1f604')} ${span('smile', '1f642')} ` +
        `${span('big_smile', '1f604')} ${span('man_detective', '1f575-fe0f-200d-2642-fe0f')} ${span('heart', '2764')}</p>`,
    );
    // As the family's: no word boundary needed around the name (`x:smile:` is x and the emoji).
    expect(renderMarkdown(':ココ: x:smile: :smile:y', ctx()).html).toBe(`<p>${span('ココ', '1f201')} x${span('smile', '1f642')} ${span('smile', '1f642')}y</p>`);
  });

  it('highlights fenced code and renders quotes, spoilers and math', () => {
    expect(renderMarkdown('```python\nx = 1\n```', ctx()).html).toBe(
      '<div class="codehilite" data-code-language="Python"><pre><span></span><code>x <span class="o">=</span> <span class="mi">1</span>\n</code></pre></div>',
    );
    expect(renderMarkdown('```quote\nwise words\n```', ctx()).html).toBe('<blockquote>\n<p>wise words</p>\n</blockquote>');
    expect(renderMarkdown('> quoted', ctx()).html).toBe('<blockquote>\n<p>quoted</p>\n</blockquote>');
    expect(renderMarkdown('```spoiler Plot\nhe dies\n```', ctx()).html).toBe(
      '<div class="spoiler-block"><div class="spoiler-header">\n<p>Plot</p>\n</div><div class="spoiler-content" aria-hidden="true">\n<p>he dies</p>\n</div></div>',
    );
    expect(renderMarkdown('$$x^2$$', ctx()).html).toMatch(/^<p><span class="katex">/);
    expect(renderMarkdown('```math\n\\frac{1}{2}\n```', ctx()).html).toMatch(/^<p><span class="katex-display">/);
  });

  it('applies linkifiers and autolinks, noting links', () => {
    const r = renderMarkdown('see #123 and https://example.com', ctx());
    expect(r.html).toBe(
      '<p>see <a href="https://github.com/org/repo/issues/123" title="https://github.com/org/repo/issues/123">#123</a> and ' +
        '<a href="https://example.com">https://example.com</a></p>',
    );
    expect(r.hasLink).toBe(true);
    expect(renderMarkdown('[x](/user_uploads/2/ab/cd/pic.png)', ctx())).toMatchObject({ hasAttachment: true, hasImage: true });
  });

  it('marks /me messages and escapes HTML', () => {
    expect(renderMarkdown('/me waves', ctx())).toMatchObject({ isMeMessage: true, html: '<p>/me waves</p>' });
    expect(renderMarkdown('<b>x</b>', ctx()).html).toBe('<p>&lt;b&gt;x&lt;/b&gt;</p>');
  });
});
