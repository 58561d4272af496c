/**
 * @module gateway/oauth-server/consent-page
 * The two pages of an authorization: sign in (the dashboard's sign-in: the gateway token field, or the
 * token of this tab's sessionStorage, or of a dashboard tab open in the same browser, asked for on a
 * same-origin BroadcastChannel — never a token from the URL, which any web site could plant: a login
 * CSRF into the attacker's account), then consent (the client's name from its metadata, the host the
 * browser goes back to, the scopes; "Allow" or "Deny"). Every value is escaped by hono's `html`; the
 * pages load nothing and cannot be framed.
 */

import { randomBytes } from 'node:crypto';
import { html, raw } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';

const STYLE = 'body{font:16px/1.5 system-ui,sans-serif;max-width:34rem;margin:4rem auto;padding:0 1rem;color:#1b1f24}h1{font-size:1.4rem}label{display:block;margin:1rem 0 .3rem}input{width:100%;padding:.5rem;font:inherit;box-sizing:border-box}button{font:inherit;padding:.5rem 1.2rem;margin:1rem .5rem 0 0}.error{color:#a40e26}dt{font-weight:600}dd{margin:0 0 .6rem}';

/** A page with its Content-Security-Policy (a nonce when it runs the sign-in script). */
export interface RenderedPage {
  body: HtmlEscapedString | Promise<HtmlEscapedString>;
  csp: string;
}

function csp(nonce?: string): string {
  return ["default-src 'none'", "style-src 'unsafe-inline'", nonce === undefined ? '' : `script-src 'nonce-${nonce}'`, "frame-ancestors 'none'", "base-uri 'none'"].filter((part) => part !== '').join('; ');
}

function shell(title: string, content: HtmlEscapedString | Promise<HtmlEscapedString>, script?: { nonce: string; code: string }): HtmlEscapedString | Promise<HtmlEscapedString> {
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${title} — Switchboard</title><style>${raw(STYLE)}</style></head><body><main>${content}</main>${script === undefined ? '' : html`<script nonce="${script.nonce}">${raw(script.code)}</script>`}</body></html>`;
}

// The dashboard keeps its token in sessionStorage under this key (dashboard/api/login-token); an open
// dashboard tab of this browser answers on the 'switchboard.session' channel (dashboard/api/session-share).
const SIGN_IN_SCRIPT = `(function(){var f=document.getElementById('signin');var i=document.getElementById('token');if(!f||!i||f.dataset.failed==='1')return;var t;try{t=sessionStorage.getItem('switchboard.token');}catch(e){}if(t){i.value=t;f.submit();return;}if(typeof BroadcastChannel==='undefined')return;var c=new BroadcastChannel('switchboard.session');var done=false;c.onmessage=function(e){var d=e.data;if(done||!d||d.type!=='token'||typeof d.token!=='string')return;done=true;c.close();i.value=d.token;f.submit();};c.postMessage({type:'ask'});setTimeout(function(){if(!done){c.close();f.dataset.asked='none';}},3000);})();`;

/** The sign-in page of interaction `uid`. */
export function loginPage(uid: string, clientName: string, error?: string, identityProvider?: string): RenderedPage {
  const nonce = randomBytes(16).toString('base64');
  const content = html`<h1>Sign in to Switchboard</h1>
<p>${clientName} wants to use your MCP servers on this gateway. Sign in first.</p>
${error === undefined ? '' : html`<p class="error" role="alert">${error}</p>`}
<form id="signin" method="post" action="/oauth/consent/${uid}/login" data-failed="${error === undefined ? '0' : '1'}">
<label for="token">Gateway token</label>
<input id="token" name="token" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>
${identityProvider === undefined ? '' : html`<p>or</p><form method="post" action="/oauth/consent/${uid}/idp"><button type="submit" id="idp">${identityProvider}</button></form>`}`;
  return { body: shell('Sign in', content, { nonce, code: SIGN_IN_SCRIPT }), csp: csp(nonce) };
}

/** The consent page of interaction `uid`. */
export function consentPage(uid: string, details: { clientName: string; clientId: string; redirectHost: string; scopes: string[]; user: string }): RenderedPage {
  const content = html`<h1>Allow access?</h1>
<p><strong>${details.clientName}</strong> asks to use your MCP servers as <strong>${details.user}</strong>.</p>
<dl>
<dt>Client</dt><dd>${details.clientName} <small>(${details.clientId})</small></dd>
<dt>Sends you back to</dt><dd>${details.redirectHost}</dd>
<dt>Access</dt><dd>${details.scopes.length === 0 ? 'none' : details.scopes.map((scope, index) => html`${index === 0 ? '' : ', '}<code>${scope}</code> (${describeScope(scope)})`)}</dd>
</dl>
<form method="post" action="/oauth/consent/${uid}/allow" style="display:inline"><button type="submit" id="allow">Allow</button></form>
<form method="post" action="/oauth/consent/${uid}/deny" style="display:inline"><button type="submit" id="deny">Deny</button></form>`;
  return { body: shell('Allow access', content), csp: csp() };
}

/** A page that says how something ended. */
export function messagePage(title: string, message: string): RenderedPage {
  return { body: shell(title, html`<h1>${title}</h1><p>${message}</p>`), csp: csp() };
}

function describeScope(scope: string): string {
  switch (scope) {
    case 'mcp':
      return 'list and call your tools';
    case 'mcp:read':
      return 'list your tools, not call them';
    case 'openid':
      return 'know who you are';
    case 'offline_access':
      return 'stay signed in';
    case 'profile':
      return 'your user name';
    default:
      return scope;
  }
}
