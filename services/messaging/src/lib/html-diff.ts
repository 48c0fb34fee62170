/**
 * content_html_diff: the new rendered HTML with inserted words wrapped in
 * <span class="highlight_text_inserted"> and removed words (from the old HTML) in
 * <span class="highlight_text_deleted">. Tags are kept as they are; only text is compared,
 * word by word, with a longest-common-subsequence diff.
 */
type Tok = { tag: boolean; text: string };

function tokenize(html: string): Tok[] {
  const out: Tok[] = [];
  for (const m of html.matchAll(/(<[^>]*>)|([^<\s]+)|(\s+)/g)) {
    if (m[1]) out.push({ tag: true, text: m[1] });
    else out.push({ tag: false, text: m[2] ?? m[3] });
  }
  return out;
}

/** Beyond this many tokens per side the diff degrades to "all removed, all inserted". */
const MAX_TOKENS = 4000;

export function htmlDiff(oldHtml: string, newHtml: string): string {
  const a = tokenize(oldHtml);
  const b = tokenize(newHtml);
  if (a.length > MAX_TOKENS || b.length > MAX_TOKENS) {
    return `<span class="highlight_text_deleted">${textOf(a)}</span>${newHtml.replace(/>([^<]+)</g, '><span class="highlight_text_inserted">$1</span><')}`;
  }
  const words = (t: Tok[]) => t.filter((x) => !x.tag);
  const wa = words(a);
  const wb = words(b);
  const n = wa.length;
  const m = wb.length;
  const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i][j] = wa[i].text === wb[j].text ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  // Walk the new HTML, emitting tags as they come and text with deletions placed before it.
  let i = 0;
  let j = 0;
  let out = '';
  let inserted = '';
  let deleted = '';
  const flush = () => {
    if (deleted.trim()) out += `<span class="highlight_text_deleted">${deleted}</span>`;
    else out += deleted;
    if (inserted.trim()) out += `<span class="highlight_text_inserted">${inserted}</span>`;
    else out += inserted;
    deleted = '';
    inserted = '';
  };
  for (const tok of b) {
    if (tok.tag) {
      flush();
      out += tok.text;
      continue;
    }
    while (i < n && !(wa[i].text === tok.text && lcs[i][j] === lcs[i + 1][j + 1] + 1) && lcs[i + 1][j] >= lcs[i][j + 1]) {
      deleted += wa[i].text;
      i++;
    }
    if (i < n && wa[i].text === tok.text) {
      flush();
      out += tok.text;
      i++;
    } else inserted += tok.text;
    j++;
  }
  while (i < n) deleted += wa[i++].text;
  flush();
  return out;
}

function textOf(t: Tok[]): string {
  return t.filter((x) => !x.tag).map((x) => x.text).join('');
}
