import { parseTemplate } from 'url-template';

/**
 * RFC 6570 URI templates. The url-template package expands them; it accepts anything, so the
 * grammar of section 2 is checked here before a template is stored.
 */
const OPERATORS = '+#./;?&';
const RESERVED_OPERATORS = '=,!@|';
const VARCHAR = '(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})';
const VARSPEC = new RegExp(`^(${VARCHAR}+(?:\\.${VARCHAR}+)*)(?::([1-9][0-9]{0,3})|\\*)?$`);
// Literal characters: anything but controls, space and "'%<>\^`{|} (a % only as %XX).
// eslint-disable-next-line no-control-regex
const LITERAL = /^(?:[^\u0000-\u0020\u007f"'%<>\\^`{|}]|%[0-9A-Fa-f]{2})*$/u;

export interface ParsedTemplate {
  variables: string[];
  /** Literal text and expressions in order, for matching URLs back to variables. */
  parts: Array<{ literal: string } | { operator: string; names: string[] }>;
}

/** Parses a template; null when it is not valid RFC 6570. */
export function parseUriTemplate(template: string): ParsedTemplate | null {
  const parts: ParsedTemplate['parts'] = [];
  const variables: string[] = [];
  let rest = template;
  while (rest.length) {
    const open = rest.indexOf('{');
    const close = rest.indexOf('}');
    if (open === -1) {
      if (close !== -1 || !LITERAL.test(rest)) return null;
      parts.push({ literal: rest });
      break;
    }
    if (close !== -1 && close < open) return null;
    const literal = rest.slice(0, open);
    if (!LITERAL.test(literal)) return null;
    if (literal) parts.push({ literal });
    const end = rest.indexOf('}', open);
    if (end === -1) return null;
    let body = rest.slice(open + 1, end);
    if (body.includes('{')) return null;
    let operator = '';
    if (body && OPERATORS.includes(body[0]!)) [operator, body] = [body[0]!, body.slice(1)];
    else if (body && RESERVED_OPERATORS.includes(body[0]!)) return null;
    const names: string[] = [];
    for (const spec of body.split(',')) {
      const m = VARSPEC.exec(spec);
      if (!m) return null;
      names.push(m[1]!);
      if (!variables.includes(m[1]!)) variables.push(m[1]!);
    }
    parts.push({ operator, names });
    rest = rest.slice(end + 1);
  }
  return { variables, parts };
}

export function expandUriTemplate(template: string, values: Record<string, string>): string {
  return parseTemplate(template).expand(values);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The variables of a URL expanded from `template` (simple and reserved expressions of one
 * variable each), or null when the URL does not have the template's shape.
 */
export function matchUriTemplate(template: string, url: string): Record<string, string> | null {
  const parsed = parseUriTemplate(template);
  if (!parsed) return null;
  const names: string[] = [];
  let source = '^';
  for (const part of parsed.parts) {
    if ('literal' in part) {
      source += escapeRegExp(part.literal);
      continue;
    }
    if (part.names.length !== 1 || !['', '+', '#'].includes(part.operator)) return null;
    if (part.operator === '#') source += '#';
    source += part.operator === '' ? '([^/?#&]*)' : '(.*?)';
    names.push(part.names[0]!);
  }
  const m = new RegExp(`${source}$`).exec(url);
  if (!m) return null;
  const out: Record<string, string> = {};
  names.forEach((name, i) => {
    try {
      out[name] = decodeURIComponent(m[i + 1]!);
    } catch {
      out[name] = m[i + 1]!;
    }
  });
  return out;
}
