/**
 * Markdown and the HTML the family's server renders for it, construct by construct: facts read
 * from the family's published Markdown test data (its markdown_test_cases.json) and its mobile
 * app's content test examples, written down here. The context the cases assume (users, a group,
 * a channel, a linkifier) is built in markdown-fixtures.test.ts.
 *
 * `code`: the family's token classes come from Pygments' lexers and ours from Prism's grammars,
 * so a highlighted block is compared with its token spans reduced to their text (the same
 * block, the same text, the same language name); which classes may appear is checked apart.
 */
export interface FamilyCase {
  name: string;
  markdown: string;
  html: string;
  code?: boolean;
  translateEmoticons?: boolean;
  defaultCodeBlockLanguage?: string;
}

const emoji = (name: string, code: string) =>
  `<span aria-label="${name.replace(/_/g, ' ')}" class="emoji emoji-${code}" role="img" title="${name.replace(/_/g, ' ')}">:${name}:</span>`;

export const FAMILY_CASES: FamilyCase[] = [
  { name: 'paragraph', markdown: 'test_input', html: '<p>test_input</p>' },
  { name: 'line break', markdown: 'test\nbar', html: '<p>test<br>\nbar</p>' },
  { name: 'apostrophe stays as typed', markdown: "it's lunch time", html: "<p>it's lunch time</p>" },
  { name: 'emphasis', markdown: 'A *foo bar* is a *baz quux*', html: '<p>A <em>foo bar</em> is a <em>baz quux</em></p>' },
  { name: 'strong', markdown: '**foo**', html: '<p><strong>foo</strong></p>' },
  { name: 'strong emphasis', markdown: '***foo***', html: '<p><strong><em>foo</em></strong></p>' },
  { name: 'underscores do not emphasise', markdown: '_foo_', html: '<p>_foo_</p>' },
  { name: 'double underscores do not embolden', markdown: '__foo__', html: '<p>__foo__</p>' },
  { name: 'strikethrough', markdown: 'I like ~~software~~ hardware', html: '<p>I like <del>software</del> hardware</p>' },
  { name: 'strikethrough with inner spaces', markdown: 'I ~~ like software ~~ love hardware', html: '<p>I <del> like software </del> love hardware</p>' },
  { name: 'strikethrough around a link', markdown: '~~test http://xx.xx link~~', html: '<p><del>test <a href="http://xx.xx">http://xx.xx</a> link</del></p>' },
  { name: 'link with text', markdown: '[hello](https://github.com)', html: '<p><a href="https://github.com">hello</a></p>' },
  { name: 'autolink', markdown: 'https://github.com', html: '<p><a href="https://github.com">https://github.com</a></p>' },
  { name: 'link in strong', markdown: '**[Static types in Python](https://blog.zulip.com/2016/10/13/static-types-in-python-oh-mypy)**', html: '<p><strong><a href="https://blog.zulip.com/2016/10/13/static-types-in-python-oh-mypy">Static types in Python</a></strong></p>' },
  { name: 'tel and sms links', markdown: '[call me](tel:+14155551234) [or maybe not](sms:+14155551234)', html: '<p><a href="tel:+14155551234">call me</a> <a href="sms:+14155551234">or maybe not</a></p>' },
  { name: 'heading', markdown: '# Hello world', html: '<h1>Hello world</h1>' },
  { name: 'heading level 6', markdown: '###### Hello world', html: '<h6>Hello world</h6>' },
  { name: 'no heading without a space', markdown: '#Hello world', html: '<p>#Hello world</p>' },
  { name: 'bulleted list', markdown: 'Some text with a list:\n\n* One item\n* Two items\n* Three items', html: '<p>Some text with a list:</p>\n<ul>\n<li>One item</li>\n<li>Two items</li>\n<li>Three items</li>\n</ul>' },
  { name: 'hanging list', markdown: 'Some text with a hanging list:\n* One item\n* Two items\n* Three items', html: '<p>Some text with a hanging list:</p>\n<ul>\n<li>One item</li>\n<li>Two items</li>\n<li>Three items</li>\n</ul>' },
  { name: 'numbered list from 3', markdown: '3. A\n3. B\n3. C\n3. D', html: '<ol start="3">\n<li>A</li>\n<li>B</li>\n<li>C</li>\n<li>D</li>\n</ol>' },
  { name: 'loose list', markdown: 'Plain list\n\n* Alpha\n\n* Beta', html: '<p>Plain list</p>\n<ul>\n<li>\n<p>Alpha</p>\n</li>\n<li>\n<p>Beta</p>\n</li>\n</ul>' },
  {
    name: 'table',
    markdown: 'This is a table:\n\nFirst header  | Second header\n------------- | -------------\nContent cell  | Content cell\nContent cell  | Content cell\n',
    html: '<p>This is a table:</p>\n<table>\n<thead>\n<tr>\n<th>First header</th>\n<th>Second header</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td>Content cell</td>\n<td>Content cell</td>\n</tr>\n<tr>\n<td>Content cell</td>\n<td>Content cell</td>\n</tr>\n</tbody>\n</table>',
  },
  { name: 'quote', markdown: '> Hello World!\n\n> Hello Universe!', html: '<blockquote>\n<p>Hello World!</p>\n</blockquote>\n<blockquote>\n<p>Hello Universe!</p>\n</blockquote>' },
  { name: 'quote fence', markdown: 'Hamlet said:\n~~~ quote\nTo be or **not** to be.\n\nThat is the question\n~~~', html: '<p>Hamlet said:</p>\n<blockquote>\n<p>To be or <strong>not</strong> to be.</p>\n<p>That is the question</p>\n</blockquote>' },
  { name: 'quote fence with a heading', markdown: '```quote\n# line 1\n#line 2\n```', html: '<blockquote>\n<h1>line 1</h1>\n<p>#line 2</p>\n</blockquote>' },
  { name: 'quote fence then quote', markdown: '```quote\nText in\nmultiple lines.\n```\n\n> Text in a single line.', html: '<blockquote>\n<p>Text in<br>\nmultiple lines.</p>\n</blockquote>\n<blockquote>\n<p>Text in a single line.</p>\n</blockquote>' },
  { name: 'code span', markdown: '`<&nbsp;>`', html: '<p><code>&lt;&amp;nbsp;&gt;</code></p>' },
  { name: 'code span keeps spaces', markdown: '` outer ` ```    space    ```', html: '<p><code> outer </code> <code>    space    </code></p>' },
  { name: 'fence without language', markdown: '\n```\nfenced code\n```\n\n```inline code```\n', html: '<div class="codehilite"><pre><span></span><code>fenced code\n</code></pre></div>\n<p><code>inline code</code></p>' },
  { name: 'fence escapes', markdown: '& &amp; &amp;amp;\n~~~~\n& &amp; &amp;amp;\n~~~~\n    & &amp; &amp;amp;', html: '<p>&amp; &amp; &amp;amp;</p>\n<div class="codehilite"><pre><span></span><code>&amp; &amp;amp; &amp;amp;amp;\n</code></pre></div>\n<div class="codehilite"><pre><span></span><code>&amp; &amp;amp; &amp;amp;amp;\n</code></pre></div>' },
  { name: 'fence trailing whitespace cut', markdown: 'Hamlet once said\n~~~~\ndef func():\n    x = 1\n\n    y = 2\t\t\n\n    z = 3       \n~~~~\nAnd all was good.', html: '<p>Hamlet once said</p>\n<div class="codehilite"><pre><span></span><code>def func():\n    x = 1\n\n    y = 2\n\n    z = 3\n</code></pre></div>\n<p>And all was good.</p>' },
  { name: 'indented code', markdown: '    def foo(): pass', html: '<div class="codehilite"><pre><span></span><code>def foo(): pass\n</code></pre></div>' },
  { name: 'HTML in a fence', markdown: '~~~\n<h1>stay normal</h1>\n~~~', html: '<div class="codehilite"><pre><span></span><code>&lt;h1&gt;stay normal&lt;/h1&gt;\n</code></pre></div>' },
  { name: 'invented language', markdown: '``` inventedlanguage\ndef speak(self):\n    x = 1\n```', html: '<div class="codehilite" data-code-language="inventedlanguage"><pre><span></span><code>def speak(self):\n    x = 1\n</code></pre></div>' },
  {
    name: 'python, highlighted',
    code: true,
    markdown: 'Hamlet said:\n~~~~.python \ndef speak(self):\n    x = 1\n~~~~',
    html: '<p>Hamlet said:</p>\n<div class="codehilite" data-code-language="Python"><pre><span></span><code><span class="k">def</span> <span class="nf">speak</span><span class="p">(</span><span class="bp">self</span><span class="p">):</span>\n    <span class="n">x</span> <span class="o">=</span> <span class="mi">1</span>\n</code></pre></div>',
  },
  {
    name: 'language alias named as Pygments names it',
    code: true,
    markdown: '``` py2\ndef speak(self):\n    x = 1\n```',
    html: '<div class="codehilite" data-code-language="Python 2.x"><pre><span></span><code><span class="k">def</span> <span class="nf">speak</span><span class="p">(</span><span class="bp">self</span><span class="p">):</span>\n    <span class="n">x</span> <span class="o">=</span> <span class="mi">1</span>\n</code></pre></div>',
  },
  {
    name: 'tex fence is TeX code',
    code: true,
    markdown: '```tex\n\n\\pi \\textbf{ is not } 3.14\n```',
    html: '<div class="codehilite" data-code-language="TeX"><pre><span></span><code><span class="k">\\pi</span> <span class="k">\\textbf</span><span class="nb">{</span> is not <span class="nb">}</span> 3.14\n</code></pre></div>',
  },
  {
    name: 'latex fence is TeX code',
    code: true,
    markdown: '```latex\n\n\\pi \\textbf{ is not } 3.14\n```',
    html: '<div class="codehilite" data-code-language="TeX"><pre><span></span><code><span class="k">\\pi</span> <span class="k">\\textbf</span><span class="nb">{</span> is not <span class="nb">}</span> 3.14\n</code></pre></div>',
  },
  {
    name: 'shebang names the language',
    code: true,
    markdown: '```\n#!python\nprint("Hello World")\n```',
    html: '<div class="codehilite"><pre><span></span><code><span class="ch">#!python</span>\n<span class="nb">print</span><span class="p">(</span><span class="s2">&quot;Hello World&quot;</span><span class="p">)</span>\n</code></pre></div>',
  },
  {
    name: 'rust, multiline',
    code: true,
    markdown: '```rust\nfn main() {\n    print!("Hello ");\n\n    print!("world!\\n");\n}\n```',
    html:
      '<div class="codehilite" data-code-language="Rust"><pre><span></span><code><span class="k">fn</span> <span class="nf">main</span>' +
      '<span class="p">()</span><span class="w"> </span><span class="p">{</span>\n<span class="w">    </span><span class="fm">print!</span><span class="p">(</span>' +
      '<span class="s">"Hello "</span><span class="p">);</span>\n\n<span class="w">    </span><span class="fm">print!</span><span class="p">(</span>' +
      '<span class="s">"world!</span><span class="se">\\n</span><span class="s">"</span><span class="p">);</span>\n<span class="p">}</span>\n</code></pre></div>',
  },
  {
    name: 'realm default language',
    code: true,
    defaultCodeBlockLanguage: 'Python',
    markdown: '```\nx = 1\n```',
    html: '<div class="codehilite" data-code-language="Python"><pre><span></span><code><span class="n">x</span> <span class="o">=</span> <span class="mi">1</span>\n</code></pre></div>',
  },
  { name: 'spoiler', markdown: '```spoiler header\ncontent\n```\noutside spoiler\n', html: '<div class="spoiler-block"><div class="spoiler-header">\n<p>header</p>\n</div><div class="spoiler-content" aria-hidden="true">\n<p>content</p>\n</div></div>\n<p>outside spoiler</p>' },
  { name: 'spoiler without header', markdown: '```spoiler\ncontent\n```\noutside spoiler\n', html: '<div class="spoiler-block"><div class="spoiler-header">\n</div><div class="spoiler-content" aria-hidden="true">\n<p>content</p>\n</div></div>\n<p>outside spoiler</p>' },
  { name: 'spoiler header with markdown', markdown: '```spoiler [Header](https://example.com) :smile:\ncontent\n```', html: `<div class="spoiler-block"><div class="spoiler-header">\n<p><a href="https://example.com">Header</a> ${emoji('smile', '1f642')}</p>\n</div><div class="spoiler-content" aria-hidden="true">\n<p>content</p>\n</div></div>` },
  { name: 'spoiler in a quote fence', markdown: '~~~quote\n```spoiler header\ncontent\n```\noutside spoiler\n~~~\noutside quote', html: '<blockquote>\n<div class="spoiler-block"><div class="spoiler-header">\n<p>header</p>\n</div><div class="spoiler-content" aria-hidden="true">\n<p>content</p>\n</div></div>\n<p>outside spoiler</p>\n</blockquote>\n<p>outside quote</p>' },
  {
    name: 'inline math',
    markdown: '$$1 \\oplus 0 = 1$$',
    html: '<p><span class="katex"><span class="katex-mathml"><math xmlns="http://www.w3.org/1998/Math/MathML"><semantics><mrow><mn>1</mn><mo>⊕</mo><mn>0</mn><mo>=</mo><mn>1</mn></mrow><annotation encoding="application/x-tex">1 \\oplus 0 = 1</annotation></semantics></math></span><span class="katex-html" aria-hidden="true"><span class="base"><span class="strut" style="height:0.7278em;vertical-align:-0.0833em;"></span><span class="mord">1</span><span class="mspace" style="margin-right:0.2222em;"></span><span class="mbin">⊕</span><span class="mspace" style="margin-right:0.2222em;"></span></span><span class="base"><span class="strut" style="height:0.6444em;"></span><span class="mord">0</span><span class="mspace" style="margin-right:0.2778em;"></span><span class="mrel">=</span><span class="mspace" style="margin-right:0.2778em;"></span></span><span class="base"><span class="strut" style="height:0.6444em;"></span><span class="mord">1</span></span></span></span></p>',
  },
  {
    name: 'math fence',
    markdown: '```math\na^2 = b^2 + c^2\n```',
    html: '<p><span class="katex-display"><span class="katex"><span class="katex-mathml"><math xmlns="http://www.w3.org/1998/Math/MathML" display="block"><semantics><mrow><msup><mi>a</mi><mn>2</mn></msup><mo>=</mo><msup><mi>b</mi><mn>2</mn></msup><mo>+</mo><msup><mi>c</mi><mn>2</mn></msup></mrow><annotation encoding="application/x-tex">a^2 = b^2 + c^2</annotation></semantics></math></span><span class="katex-html" aria-hidden="true"><span class="base"><span class="strut" style="height:0.8641em;"></span><span class="mord"><span class="mord mathnormal">a</span><span class="msupsub"><span class="vlist-t"><span class="vlist-r"><span class="vlist" style="height:0.8641em;"><span style="top:-3.113em;margin-right:0.05em;"><span class="pstrut" style="height:2.7em;"></span><span class="sizing reset-size6 size3 mtight"><span class="mord mtight">2</span></span></span></span></span></span></span></span><span class="mspace" style="margin-right:0.2778em;"></span><span class="mrel">=</span><span class="mspace" style="margin-right:0.2778em;"></span></span><span class="base"><span class="strut" style="height:0.9474em;vertical-align:-0.0833em;"></span><span class="mord"><span class="mord mathnormal">b</span><span class="msupsub"><span class="vlist-t"><span class="vlist-r"><span class="vlist" style="height:0.8641em;"><span style="top:-3.113em;margin-right:0.05em;"><span class="pstrut" style="height:2.7em;"></span><span class="sizing reset-size6 size3 mtight"><span class="mord mtight">2</span></span></span></span></span></span></span></span><span class="mspace" style="margin-right:0.2222em;"></span><span class="mbin">+</span><span class="mspace" style="margin-right:0.2222em;"></span></span><span class="base"><span class="strut" style="height:0.8641em;"></span><span class="mord"><span class="mord mathnormal">c</span><span class="msupsub"><span class="vlist-t"><span class="vlist-r"><span class="vlist" style="height:0.8641em;"><span style="top:-3.113em;margin-right:0.05em;"><span class="pstrut" style="height:2.7em;"></span><span class="sizing reset-size6 size3 mtight"><span class="mord mtight">2</span></span></span></span></span></span></span></span></span></span></span></span></p>',
  },
  {
    name: 'inline math in text with dollars',
    markdown: 'Tickets are $5 to $20 for youth, $10-$30 for adults, so we are hoping to bring in $500 from the event ($$x \\approx 500\\$$$)',
    html: '<p>Tickets are $5 to $20 for youth, $10-$30 for adults, so we are hoping to bring in $500 from the event (<span class="katex"><span class="katex-mathml"><math xmlns="http://www.w3.org/1998/Math/MathML"><semantics><mrow><mi>x</mi><mo>≈</mo><mn>500</mn><mi mathvariant="normal">$</mi></mrow><annotation encoding="application/x-tex">x \\approx 500\\$</annotation></semantics></math></span><span class="katex-html" aria-hidden="true"><span class="base"><span class="strut" style="height:0.4831em;"></span><span class="mord mathnormal">x</span><span class="mspace" style="margin-right:0.2778em;"></span><span class="mrel">≈</span><span class="mspace" style="margin-right:0.2778em;"></span></span><span class="base"><span class="strut" style="height:0.8056em;vertical-align:-0.0556em;"></span><span class="mord">500$</span></span></span></span>)</p>',
  },
  { name: 'no math across lines', markdown: '$$x=3\ny=4$$', html: '<p>$$x=3<br>\ny=4$$</p>' },
  { name: 'no math for $$_$$', markdown: '$$_$$ is a fun money-related smiley!', html: '<p>$$_$$ is a fun money-related smiley!</p>' },
  { name: 'no math for runs of dollars', markdown: 'We are going to make some $$$ or maybe even $$$$!', html: '<p>We are going to make some $$$ or maybe even $$$$!</p>' },
  { name: 'math in a code span', markdown: '`$$a$$`', html: '<p><code>$$a$$</code></p>' },
  { name: 'inline TeX error', markdown: '$$\\error{**a**}$$', html: '<p><span class="tex-error">$$\\error{**a**}$$</span></p>' },
  { name: 'math fence TeX error', markdown: '~~~math\n\\error{**a**}\n~~~', html: '<p><span class="tex-error">\\error{**a**}</span></p>' },
  {
    name: 'TeX errors escaped',
    markdown: "$$\\<script type='text/javascript'>alert('xss');</script>$$\n\n~~~math\n\\<script type='text/javascript'>alert('xss');</script>\n~~~",
    html: "<p><span class=\"tex-error\">$$\\&lt;script type='text/javascript'&gt;alert('xss');&lt;/script&gt;$$</span></p>\n<p><span class=\"tex-error\">\\&lt;script type=&#x27;text/javascript&#x27;&gt;alert(&#x27;xss&#x27;);&lt;/script&gt;</span></p>",
  },
  { name: 'emoji by name', markdown: 'test :smile: again :poop:', html: `<p>test ${emoji('smile', '1f642')} again ${emoji('poop', '1f4a9')}</p>` },
  { name: 'emoji in strong', markdown: '**:smile:**', html: `<p><strong>${emoji('smile', '1f642')}</strong></p>` },
  { name: 'emoji typed as a character', markdown: 'Merry Christmas!!\ud83c\udf84', html: `<p>Merry Christmas!!${emoji('holiday_tree', '1f384')}</p>` },
  { name: 'emoji without spaces', markdown: ':cat:hello:dog::rabbit:', html: `<p>${emoji('cat', '1f408')}hello${emoji('dog', '1f415')}${emoji('rabbit', '1f407')}</p>` },
  { name: 'not an emoji', markdown: ':not_an_emoji:', html: '<p>:not_an_emoji:</p>' },
  { name: 'the zulip emoji', markdown: ':zulip:', html: '<p><img alt=":zulip:" class="emoji" src="/static/generated/emoji/images/emoji/unicode/zulip.png" title="zulip"></p>' },
  { name: 'emoticons off', markdown: ':)', html: '<p>:)</p>' },
  { name: 'emoticons on', translateEmoticons: true, markdown: ':) foo :( bar <3 with space : ) real emoji :smile:', html: `<p>${emoji('smile', '1f642')} foo ${emoji('frown', '1f641')} bar ${emoji('heart', '2764')} with space : ) real emoji ${emoji('smile', '1f642')}</p>` },
  { name: 'emoticons need terminal symbols', translateEmoticons: true, markdown: 'a:) ;)b', html: '<p>a:) ;)b</p>' },
  { name: 'emoticon between symbols', translateEmoticons: true, markdown: 'Translate this !:)?', html: `<p>Translate this !${emoji('smile', '1f642')}?</p>` },
  { name: 'emoticon in code', translateEmoticons: true, markdown: '`:)`', html: '<p><code>:)</code></p>' },
  { name: 'time', markdown: '<time:2024-03-07T15:00:00-08:00>', html: '<p><time datetime="2024-03-07T23:00:00Z">2024-03-07T15:00:00-08:00</time></p>' },
  { name: 'unix time', markdown: "Let's meet at <time:1496701800>.", html: '<p>Let\'s meet at <time datetime="2017-06-05T22:30:00Z">1496701800</time>.</p>' },
  { name: 'invalid time', markdown: '<time:**hello world**>', html: '<p><span class="timestamp-error">Invalid time format: **hello world**</span></p>' },
  { name: 'user mention', markdown: '@**King Hamlet**', html: '<p><span class="user-mention" data-user-id="10">@King Hamlet</span></p>' },
  { name: 'silent user mention', markdown: '@_**King Hamlet**', html: '<p><span class="user-mention silent" data-user-id="10">King Hamlet</span></p>' },
  { name: 'group mention', markdown: '@*support*', html: '<p><span class="user-group-mention" data-user-group-id="5">@support</span></p>' },
  { name: 'silent group mention', markdown: '@_*support*', html: '<p><span class="user-group-mention silent" data-user-group-id="5">support</span></p>' },
  { name: 'channel wildcard', markdown: '@**all**', html: '<p><span class="user-mention channel-wildcard-mention" data-user-id="*">@all</span></p>' },
  { name: 'silent channel wildcard', markdown: '@_**everyone**', html: '<p><span class="user-mention channel-wildcard-mention silent" data-user-id="*">everyone</span></p>' },
  { name: 'topic wildcard', markdown: '@**topic**', html: '<p><span class="topic-mention">@topic</span></p>' },
  { name: 'silent topic wildcard', markdown: '@_**topic**', html: '<p><span class="topic-mention silent">topic</span></p>' },
  { name: 'channel link', markdown: '#**Verona**', html: '<p><a class="stream" data-stream-id="3" href="/#narrow/channel/3-Verona">#Verona</a></p>' },
  { name: 'topic link', markdown: '#**Verona>the castle**', html: '<p><a class="stream-topic" data-stream-id="3" href="/#narrow/channel/3-Verona/topic/the.20castle">#Verona &gt; the castle</a></p>' },
  { name: 'linkifier', markdown: 'see #123', html: '<p>see <a href="https://github.com/org/repo/issues/123" title="https://github.com/org/repo/issues/123">#123</a></p>' },
  { name: 'HTML is text', markdown: '<h1>stay normal</h1> thanks', html: '<p>&lt;h1&gt;stay normal&lt;/h1&gt; thanks</p>' },
];
