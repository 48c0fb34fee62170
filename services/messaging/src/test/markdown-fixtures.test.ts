// The renderer against the family's HTML, construct by construct (family-markdown-cases.ts),
// and the classes of its code blocks and math against those the family's clients know. A pure
// function of source and context: no cluster.
import { emptyRenderContext, renderMarkdown } from '../markdown';
import type { RenderContext } from '../markdown';
import { PYGMENTS_CLASSES } from '../markdown/pygments';
import { FAMILY_CASES, type FamilyCase } from './family-markdown-cases';

function ctx(c: Partial<FamilyCase> = {}): RenderContext {
  const r = emptyRenderContext('http://chat.test');
  const hamlet = { id: 10, fullName: 'King Hamlet', email: 'hamlet@chat.test' };
  r.usersByName.set('king hamlet', [hamlet]);
  r.usersById.set(10, hamlet);
  r.groupsByName.set('support', { id: 5, name: 'support' });
  r.streamsByName.set('verona', { id: 3, name: 'Verona' });
  r.linkifiers.push({ id: 1, pattern: '#(?P<id>[0-9]+)', urlTemplate: 'https://github.com/org/repo/issues/{id}' });
  r.translateEmoticons = c.translateEmoticons ?? false;
  r.defaultCodeBlockLanguage = c.defaultCodeBlockLanguage ?? '';
  return r;
}

/** Whitespace between tags and at the ends does not count. */
const normalize = (html: string) => html.replace(/>\s+</g, '><').trim();

const CODE_BLOCK = /<div class="codehilite"([^>]*)><pre><span><\/span><code>([\s\S]*?)<\/code><\/pre><\/div>/g;
const TOKEN_SPAN = /<span class="([^"]+)">([^<]*)<\/span>/g;

/** Code blocks with their token spans reduced to text (`&quot;` and `"` are the same text). */
const codeAsText = (html: string) =>
  html.replace(CODE_BLOCK, (_m, attrs: string, body: string) => `<div class="codehilite"${attrs}><pre><span></span><code>${body.replace(TOKEN_SPAN, '$2').replace(/&quot;/g, '"')}</code></pre></div>`);

/** The mobile app's code-block span types (its CodeBlockSpanType), `hll` aside: it draws that as unimplemented. */
const APP_CODE_CLASSES = new Set([...PYGMENTS_CLASSES].filter((c) => c !== 'hll'));

/**
 * The KaTeX classes the mobile app's KaTeX parser reads (its lib/model/katex.dart), with the
 * wrappers it requires; a class outside them sends it back to showing the TeX source.
 */
const APP_KATEX_CLASSES = new Set(
  (
    'katex katex-display katex-mathml katex-html base strut textbf textit textrm texttt mathnormal mathit mathrm mathbf ' +
    'boldsymbol amsrm mathbb textbb mathcal mathfrak textfrak mathboldfrak textboldfrak mathtt mathscr textscr mathsf ' +
    'textsf mathboldsf textboldsf mathsfit mathitsf textitsf mainrm mspace msupsub sizing fontsize-ensurer delimsizing ' +
    'nulldelimiter op-symbol small-op large-op mord mopen mtight text mrel mop mclose minner mbin mpunct nobreak allowbreak ' +
    'mathdefault vlist-t vlist-t2 vlist-r vlist vlist-s pstrut newline'
  ).split(' '),
);
const isAppKatexClass = (c: string) => APP_KATEX_CLASSES.has(c) || /^(reset-size|size)\d\d?$/.test(c);

describe("the family's HTML, construct by construct", () => {
  it.each(FAMILY_CASES.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const ours = renderMarkdown(c.markdown, ctx(c)).html;
    if (c.code) expect(normalize(codeAsText(ours))).toBe(normalize(codeAsText(c.html)));
    else expect(normalize(ours)).toBe(normalize(c.html));
  });
});

describe('classes the clients know', () => {
  /** Every class of every code block, and that a block holds only text and flat classed spans. */
  function codeClasses(html: string): string[] {
    const classes: string[] = [];
    let blocks = 0;
    for (const [, , body] of html.matchAll(CODE_BLOCK)) {
      blocks++;
      expect(body!.replace(TOKEN_SPAN, '')).not.toMatch(/</);
      for (const [, cls] of body!.matchAll(TOKEN_SPAN)) classes.push(...cls!.split(' '));
    }
    expect(blocks).toBeGreaterThan(0);
    return classes;
  }

  const SAMPLES: Record<string, string> = {
    python: '@dataclass\nclass A(B):\n    """Doc."""\n    def f(self, x=0x1F, y=1.5e3):\n        return f"{x!r}" + \'s\' # note\n',
    javascript: 'const re = /a+b/g; // c\nlet t = `x ${y}`;\nclass K extends L { static m() { return null; } }\n',
    typescript: 'interface P { a: number }\nexport function f<T>(x: T): T[] { return [x]; }\n',
    rust: 'fn main() {\n    print!("world!\\n");\n    let v: Vec<u8> = vec![1, 2];\n}\n',
    go: 'package main\nimport "fmt"\nfunc main() { fmt.Println(1) }\n',
    java: '@Override\npublic static void main(String[] args) { int x = 0b101; }\n',
    c: '#include <stdio.h>\nint main(void) { /* c */ return 0; }\n',
    'c++': 'template <typename T> T max(T a, T b) { return a > b ? a : b; }\n',
    bash: '#!/bin/bash\nfor f in *.txt; do echo "$f"; done\n',
    sql: "SELECT id, name FROM users WHERE id = 1 AND name LIKE 'a%';\n",
    json: '{"a": [1, true, null], "b": "c"}\n',
    yaml: '- item\nkey: value # c\n',
    html: '<!DOCTYPE html>\n<a href="x">y</a><!-- c -->\n',
    css: '@media (max-width: 10px) { .a > b:hover { color: #fff !important; } }\n',
    diff: '@@ -1 +1 @@\n-old\n+new\n',
    tex: '\\pi \\textbf{ is not } 3.14\n',
    markdown: '# Title\n*em* **strong** [l](u)\n',
    ruby: 'def f(x) = x.map { |y| y * 2 } # c\n',
    php: '<?php echo $x; ?>\n',
    haskell: 'main :: IO ()\nmain = putStrLn "x"\n',
    kotlin: 'fun main() { val x: Int = 1 }\n',
    swift: 'let x: Int = 1\nfunc f() -> Bool { true }\n',
    console: '$ ls -la\ntotal 0\n',
  };

  it.each(Object.entries(SAMPLES))('%s: only the Pygments token classes the mobile app reads', (lang, code) => {
    const html = renderMarkdown(`\`\`\`${lang}\n${code}\`\`\``, ctx()).html;
    const classes = codeClasses(html);
    expect(classes.length).toBeGreaterThan(0);
    expect(classes.filter((c) => !APP_CODE_CLASSES.has(c))).toEqual([]);
    // The source comes back whole, unescaped, from the block's text.
    const text = /<code>([\s\S]*)<\/code>/.exec(html)![1]!.replace(TOKEN_SPAN, '$2');
    expect(text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&')).toBe(code);
  });

  it('names the language as Pygments names it, and leaves a block plain when it cannot', () => {
    expect(renderMarkdown('```js\nx\n```', ctx()).html).toContain('data-code-language="JavaScript"');
    expect(renderMarkdown('```C++\nx\n```', ctx()).html).toContain('data-code-language="C++"');
    expect(renderMarkdown('```text\na = 1\n```', ctx()).html).toBe('<div class="codehilite" data-code-language="Text only"><pre><span></span><code>a = 1\n</code></pre></div>');
    expect(renderMarkdown('```\n```', ctx()).html).toBe('');
  });

  it.each(['x^2', 'a_1 + b_2 < c', '\\Phi_E = \\oint E \\cdot dA', '\\mathbb{R} \\to \\mathcal{C}'])(
    'math %s: the shape the mobile app requires, with its TeX kept',
    (tex) => {
      for (const [source, display] of [[`$$${tex}$$`, false], [`\`\`\`math\n${tex}\n\`\`\``, true]] as const) {
        const html = renderMarkdown(source, ctx()).html;
        const open = display ? '<p><span class="katex-display"><span class="katex">' : '<p><span class="katex">';
        expect(html.startsWith(`${open}<span class="katex-mathml"><math xmlns="http://www.w3.org/1998/Math/MathML"${display ? ' display="block"' : ''}><semantics>`)).toBe(true);
        expect(html).toContain(`<annotation encoding="application/x-tex">${tex.replace(/</g, '&lt;')}</annotation></semantics></math></span><span class="katex-html" aria-hidden="true">`);
        const classes = [...html.matchAll(/class="([^"]+)"/g)].flatMap((m) => m[1]!.split(' '));
        expect(classes.filter((c) => !isAppKatexClass(c))).toEqual([]);
        expect(classes).not.toContain('katex-base');
        expect(classes).toContain('strut');
      }
    },
  );
});
