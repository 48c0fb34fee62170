import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Request, Response } from 'express';
import { errors, WEB_APP_ASSET_PREFIX } from '@chat/contracts';
import type { Logger } from '@chat/kit';
import { WebAssets } from './web-assets';

/** Where the shell receives the session's CSRF token, which the web app sends as X-CSRFToken. */
export const CSRF_PLACEHOLDER = '__CSRF_TOKEN__';

/**
 * The shell's policy: the app's own scripts and styles (its inline style attributes too), images
 * from anywhere over https (link previews, avatars elsewhere) and from data: and blob: URLs (local
 * previews), requests to this origin only, and never in a frame.
 */
const SHELL_CSP = (inlineScripts: string[]) => [
  "default-src 'self'",
  // The shell's own inline scripts (the early register, web/early-register.ts) by their hashes.
  ["script-src 'self'", ...inlineScripts.map((source) => `'sha256-${sha256(source)}'`)].join(' '),
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "media-src 'self' blob: https:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const sha256 = (source: string) => createHash('sha256').update(source).digest('base64');

/** The text of each inline script (no src) of a page. */
function inlineScriptsOf(html: string): string[] {
  return [...html.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!).filter((source) => source.length > 0);
}

/**
 * Browsers never send the `#fragment` (the app's deep links are `/#narrow/...`), so only the
 * page itself can hand the whole address to the login page, which comes back to it afterwards.
 */
const TO_LOGIN_SCRIPT = "location.replace('/login/?next='+encodeURIComponent(location.pathname+location.search+location.hash))";
const TO_LOGIN_PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Log in</title>' +
  `<script>${TO_LOGIN_SCRIPT}</script></head>` +
  '<body><noscript><p><a href="/login/">Log in</a> to continue.</p></noscript></body></html>';
const TO_LOGIN_CSP =
  `default-src 'none'; script-src 'sha256-${sha256(TO_LOGIN_SCRIPT)}'; ` +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const NOT_BUILT_PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Web app not built</title></head><body><main>' +
  '<h1>The web app is not built</h1><p>This server has no build of its web app: run <code>npm run build</code> ' +
  '(it writes web/dist) or point WEB_DIST_DIR at one. The apps and the API work meanwhile; your API key is on ' +
  '<a href="/accounts/api_key/">its page</a>.</p></main></body></html>';
const NOT_BUILT_CSP = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** The logged-in session of a request, and whether its realm is served over https. */
export type ShellSession = (req: Request) => Promise<{ secure: boolean } | null>;

/**
 * The web app (docs/gateway.md, "Browser sessions and the web app's files"): its shell at `/`
 * for a logged-in browser, with the session's CSRF token in place of the placeholder; a page
 * that sends anyone else to the login page with the whole address kept; and the build's files
 * below /static/app/ (web-assets.ts).
 */
export class WebApp {
  private readonly assets: WebAssets;
  private readonly index: string;
  private shell: { html: string; mtimeMs: number; csp: string } | null = null;

  constructor(dir: string, log: Logger) {
    this.assets = new WebAssets(dir);
    this.index = path.join(dir, 'index.html');
    if (!existsSync(this.index)) {
      log.warn({ WEB_DIST_DIR: dir }, 'the web app is not built (no index.html in WEB_DIST_DIR): / answers that it is not built; run npm run build');
    }
  }

  owns(urlPath: string): boolean {
    return urlPath === '/' || urlPath.startsWith(WEB_APP_ASSET_PREFIX);
  }

  async serve(req: Request, res: Response, session: ShellSession, csrfToken: (req: Request, res: Response, secure: boolean) => string): Promise<void> {
    if (req.path !== '/') return this.assets.serve(req, res);
    if (req.method !== 'GET' && req.method !== 'HEAD') throw errors.methodNotAllowed(['GET', 'HEAD']);
    // Every answer here depends on the session, and the shell carries its token: never cached.
    res.setHeader('Cache-Control', 'no-store');
    const shell = await this.readShell();
    if (!shell) return void this.page(res, 503, NOT_BUILT_PAGE, NOT_BUILT_CSP);
    const login = await session(req);
    if (!login) return void this.page(res, 200, TO_LOGIN_PAGE, TO_LOGIN_CSP);
    const token = csrfToken(req, res, login.secure);
    this.page(res, 200, shell.html.split(CSRF_PLACEHOLDER).join(escapeAttribute(token)), shell.csp);
  }

  private page(res: Response, status: number, html: string, csp: string): void {
    res.setHeader('Content-Security-Policy', csp);
    res.status(status).type('html').send(html);
  }

  /**
   * index.html, read again when it changed (a rebuild in development); null when there is none.
   * One stat per page load: the shell is asked for once per visit, not per request.
   */
  private async readShell(): Promise<{ html: string; csp: string } | null> {
    const info = await stat(this.index).catch(() => null);
    if (!info?.isFile()) return (this.shell = null);
    if (this.shell?.mtimeMs !== info.mtimeMs) {
      const html = await readFile(this.index, 'utf8');
      this.shell = { html, mtimeMs: info.mtimeMs, csp: SHELL_CSP(inlineScriptsOf(html)) };
    }
    return this.shell;
  }
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
