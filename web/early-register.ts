/**
 * Puts a small inline script in the shell's head that sends the app's POST /json/register as
 * soon as the HTML is read, with the CSRF token the gateway wrote into the shell, so the server
 * builds the person's state while the browser fetches and runs the app's files. The app takes
 * that answer for its first register (src/events/early.ts); the parameters are the app's own
 * (src/events/register-params.ts), encoded by the client package's rule, so both registers ask
 * for the same. The gateway allows the script by its hash (services/gateway/src/web-app.ts).
 */
import type { Plugin } from 'vite';
import { encodeParams } from '../packages/client/src/http.ts';
import { EARLY_REGISTER_GLOBAL } from './src/events/early.ts';
import { REGISTER_PARAMS } from './src/events/register-params.ts';

export function earlyRegisterScript(): string {
  const body = JSON.stringify(encodeParams(REGISTER_PARAMS).toString());
  return (
    `(function(){var m=document.querySelector('meta[name="csrf-token"]');if(!m||!window.fetch)return;` +
    `window.${EARLY_REGISTER_GLOBAL}=fetch('/json/register',{method:'POST',credentials:'same-origin',` +
    `headers:{'x-csrftoken':m.content,'content-type':'application/x-www-form-urlencoded'},body:${body}})` +
    `.catch(function(){return null;});})();`
  );
}

/** The shell's CSRF meta tag, which the script reads: the script goes right after it. */
const CSRF_META = /<meta name="csrf-token"[^>]*>/;

export function earlyRegister(): Plugin {
  return {
    name: 'early-register',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      // Before the stylesheet links: a classic script after a stylesheet waits for it to load.
      handler: (html) => {
        if (!CSRF_META.test(html)) throw new Error('index.html has no csrf-token meta tag for the early register to read');
        return html.replace(CSRF_META, (meta) => `${meta}<script>${earlyRegisterScript()}</script>`);
      },
    },
  };
}
