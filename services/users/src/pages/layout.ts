import type { Request, Response } from 'express';
import { ApiError } from '@chat/contracts';
import { escapeHtml } from '../lib/render';

/**
 * The markup every account page shares: one small, script-free document with a language, a
 * title that is also its heading, and forms whose errors are tied to their fields
 * (aria-describedby, aria-invalid) so screen readers announce them with the field.
 */

export interface PageOptions {
  title: string;
  /** Already-escaped HTML of the page's main content. */
  body: string;
  /** A message about the whole page (not one field), shown first and announced. */
  alert?: string;
  /** Where the page tells the person they are logged in, with a log-out button. */
  account?: { email: string; csrf: string };
}

const STYLE =
  'body{font-family:system-ui,sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem;line-height:1.5}' +
  'label{display:block;margin-top:1rem;font-weight:600}input:not([type=checkbox]){display:block;width:100%;padding:.4rem;box-sizing:border-box}' +
  'button{margin-top:1rem;padding:.5rem 1rem}.error{color:#b00020}[role=alert]{border-left:4px solid #b00020;padding-left:.5rem}' +
  'pre{background:#f4f4f4;padding:.5rem;overflow-x:auto}nav form{display:inline}';

export function renderPage(opts: PageOptions): string {
  const nav = opts.account
    ? `<nav aria-label="Account"><p>Logged in as ${escapeHtml(opts.account.email)}. ` +
      `<a href="/accounts/api_key/">Your API key</a> ` +
      `<form method="post" action="/accounts/logout/">${csrfField(opts.account.csrf)}<button type="submit">Log out</button></form></p></nav>`
    : '';
  const alert = opts.alert ? `<p role="alert" id="page-error">${escapeHtml(opts.alert)}</p>` : '';
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>${escapeHtml(opts.title)}</title><style>${STYLE}</style></head>` +
    `<body>${nav}<main><h1>${escapeHtml(opts.title)}</h1>${alert}${opts.body}</main></body></html>`
  );
}

export function csrfField(token: string): string {
  return `<input type="hidden" name="csrfmiddlewaretoken" value="${escapeHtml(token)}">`;
}

export function hiddenField(name: string, value: string | undefined): string {
  return value === undefined ? '' : `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`;
}

export interface FieldOptions {
  name: string;
  label: string;
  type?: string;
  value?: string;
  autocomplete?: string;
  required?: boolean;
  readonly?: boolean;
  /** The error about this field, shown under it and announced with it. */
  error?: string;
  hint?: string;
}

export function field(f: FieldOptions): string {
  const id = `id_${f.name}`;
  const described = [f.hint ? `${id}_hint` : '', f.error ? `${id}_error` : ''].filter(Boolean).join(' ');
  const attrs = [
    `id="${id}"`,
    `name="${escapeHtml(f.name)}"`,
    `type="${f.type ?? 'text'}"`,
    f.value !== undefined && f.type !== 'password' ? `value="${escapeHtml(f.value)}"` : '',
    f.readonly ? 'readonly' : '',
    f.autocomplete ? `autocomplete="${f.autocomplete}"` : '',
    f.required === false ? '' : 'required',
    described ? `aria-describedby="${described}"` : '',
    f.error ? 'aria-invalid="true"' : '',
  ].filter(Boolean);
  return (
    `<label for="${id}">${escapeHtml(f.label)}</label><input ${attrs.join(' ')}>` +
    (f.hint ? `<small id="${id}_hint">${escapeHtml(f.hint)}</small>` : '') +
    (f.error ? `<p class="error" id="${id}_error">${escapeHtml(f.error)}</p>` : '')
  );
}

export function form(action: string, csrf: string, inner: string, submit: string): string {
  return `<form method="post" action="${escapeHtml(action)}" novalidate>${csrfField(csrf)}${inner}<button type="submit">${escapeHtml(submit)}</button></form>`;
}

export function paragraph(text: string): string {
  return `<p>${escapeHtml(text)}</p>`;
}

export function link(href: string, text: string): string {
  return `<a href="${escapeHtml(href)}">${escapeHtml(text)}</a>`;
}

/** Scripts and API clients ask for JSON (Accept, or the form posted as JSON); browsers get pages. */
export function wantsJson(req: Request): boolean {
  return req.accepts(['html', 'json']) === 'json';
}

/** An error as a page with its message, or as the envelope for a client that wants JSON. */
export function sendErrorPage(req: Request, res: Response, err: ApiError, title = 'Something went wrong'): void {
  if (err.code === 'RATE_LIMIT_HIT') res.setHeader('Retry-After', String(err.extra['retry-after']));
  if (wantsJson(req)) {
    res.status(err.status).json(err.toJSON());
    return;
  }
  res.status(err.status).type('html').send(renderPage({ title, body: '', alert: err.message }));
}
