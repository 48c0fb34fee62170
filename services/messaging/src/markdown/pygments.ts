/**
 * Pygments' short token classes, the only classes the family's clients know inside a code block
 * (the mobile app draws an error box for any other), and how the highlighter's token types map
 * onto them.
 */

/** Pygments' STANDARD_TYPES short names, plus `hll` (a highlighted line). */
export const PYGMENTS_CLASSES: ReadonlySet<string> = new Set(
  (
    'hll w esc err x k kc kd kn kp kr kt n na nb bp nc no nd ni ne nf fm py nl nn nx nt nv vc vg vi vm ' +
    'l ld s sa sb sc dl sd s2 se sh si sx sr s1 ss m mb mf mh mi il mo o ow p pm ' +
    'c ch cm cp cpf c1 cs g gd ge gr gh gi go gp gs gu ges gt'
  ).split(' '),
);

/** Prism token types (and aliases) with a Pygments token of the same meaning. */
const BY_TYPE: Record<string, string> = {
  comment: 'c',
  prolog: 'cp',
  doctype: 'cp',
  cdata: 'cp',
  macro: 'cp',
  directive: 'cp',
  punctuation: 'p',
  namespace: 'nn',
  property: 'py',
  tag: 'nt',
  boolean: 'kc',
  number: 'm',
  constant: 'no',
  symbol: 'ss',
  deleted: 'gd',
  inserted: 'gi',
  selector: 'nt',
  'attr-name': 'na',
  'attr-value': 's',
  string: 's',
  char: 'sc',
  builtin: 'nb',
  operator: 'o',
  entity: 'ni',
  url: 'sx',
  variable: 'nv',
  atrule: 'k',
  rule: 'k',
  function: 'nf',
  'function-definition': 'nf',
  'class-name': 'nc',
  keyword: 'k',
  regex: 'sr',
  important: 'k',
  bold: 'gs',
  italic: 'ge',
  decorator: 'nd',
  annotation: 'nd',
  interpolation: 'si',
  'interpolation-punctuation': 'si',
  escape: 'se',
  label: 'nl',
  date: 'ld',
  hexcode: 'mh',
  unit: 'kt',
  title: 'gh',
  coord: 'gu',
  parameter: 'n',
  prompt: 'gp',
  output: 'go',
};

/**
 * Language-specific token types, by a word of their name (`triple-quoted-string`,
 * `keyword-control`, `doc-comment`), first match wins. A type matching none of these inherits
 * its enclosing token's class, or stays plain text.
 */
const BY_WORD: Array<[RegExp, string]> = [
  [/comment/, 'c'],
  [/regex/, 'sr'],
  [/(^|-)(doc|docstring)(-|$)/, 'sd'],
  [/string|quoted|char/, 's'],
  [/escape/, 'se'],
  [/interpolation|template-punctuation/, 'si'],
  [/number|numeric|integer|float|decimal|hex|binary|octal/, 'm'],
  [/boolean|(^|-)bool(-|$)|null|nil/, 'kc'],
  [/keyword|control|conditional|(^|-)(if|loop|return|import|export)(-|$)/, 'k'],
  [/built-?in/, 'nb'],
  [/class/, 'nc'],
  [/(^|-)(type|types|datatype|data-type|struct|interface|enum|trait)(-|$)/, 'kt'],
  [/function|method|(^|-)func(-|$)/, 'nf'],
  [/constant/, 'no'],
  [/variable|(^|-)var(-|$)/, 'nv'],
  [/decorator|annotation/, 'nd'],
  [/attr|attribute/, 'na'],
  [/property|field/, 'py'],
  [/(^|-)tag(-|$)|element/, 'nt'],
  [/namespace|package|module/, 'nn'],
  [/operator/, 'o'],
  [/punctuation|bracket|brace|paren|delimiter|separator/, 'p'],
  [/label/, 'nl'],
  [/symbol|atom/, 'ss'],
  [/entity/, 'ni'],
  [/deleted/, 'gd'],
  [/inserted/, 'gi'],
  [/bold|strong/, 'gs'],
  [/italic|emphasis/, 'ge'],
  [/title|heading|section/, 'gh'],
  [/error|invalid/, 'err'],
  [/preprocessor|pragma|shebang/, 'cp'],
  [/date|time/, 'ld'],
];

/** The Pygments class of one Prism token type, or null when none has its meaning. */
export function classOfType(type: string): string | null {
  const exact = BY_TYPE[type];
  if (exact) return exact;
  for (const [re, cls] of BY_WORD) if (re.test(type)) return cls;
  return null;
}

/** The class of a token from its type and then its aliases, or null. */
export function classOfToken(type: string, alias: string | string[] | undefined): string | null {
  const own = classOfType(type);
  if (own) return own;
  for (const a of alias === undefined ? [] : Array.isArray(alias) ? alias : [alias]) {
    const cls = classOfType(a);
    if (cls) return cls;
  }
  return null;
}

/**
 * The finer Pygments class that the token's own text shows, as Pygments' lexers emit them:
 * quotes tell single from double strings, digits integers from floats and hex, the comment
 * opener single-line from multi-line comments and shebangs.
 */
export function refineClass(cls: string, text: string): string {
  switch (cls) {
    case 's':
      if (/^[rbuf]*'/i.test(text)) return 's1';
      if (/^[rbuf]*"/i.test(text)) return 's2';
      if (text.startsWith('`')) return 'sb';
      return cls;
    case 'm':
      if (/^[-+]?0x/i.test(text)) return 'mh';
      if (/^[-+]?0b[01_]+$/i.test(text)) return 'mb';
      if (/^[-+]?0o[0-7_]+$/i.test(text)) return 'mo';
      if (/^[-+]?[\d_]+[lL]$/.test(text)) return 'il';
      if (/^[-+]?[\d_]*\.?[\d_]+(e[-+]?\d+)?[fFdD]?$/i.test(text) && /[.eE]/.test(text)) return 'mf';
      if (/^[-+]?[\d_]+$/.test(text)) return 'mi';
      return cls;
    case 'c':
      if (text.startsWith('#!')) return 'ch';
      if (/^(\/\*|<!--|\{-|\(\*)/.test(text)) return 'cm';
      if (/^(\/\/|#|--|;|%|')/.test(text)) return 'c1';
      return cls;
    default:
      return cls;
  }
}
