/**
 * @module gateway/oauth-server/load-oidc-provider
 * Loads `oidc-provider` without its runtime notice. At import, its `lib/index.js` prints
 * "oidc-provider WARNING: Unsupported runtime. Use Node.js v22.x LTS, or a later LTS release." to
 * the console whenever `process.release.lts` is not a Node LTS codename from "Jod" (22) on, or the
 * runtime is Deno, Bun or workerd. That is its support policy (panva answers issues only on current
 * LTS lines), not a feature check: its `engines` accept Node >= 20.19, as ours do, and the gateway's
 * whole suite runs on Node 20. Printed at import, bypassing our logger, it is noise before every
 * `serve` — so exactly that line is dropped while the module loads, and the gateway says it once at
 * debug level instead ({@link runtimeNotice}).
 */

import type * as OidcProvider from 'oidc-provider';

/** The text oidc-provider prints on a runtime it does not support. */
export const UNSUPPORTED_RUNTIME_NOTICE = 'Unsupported runtime. Use Node.js v22.x LTS, or a later LTS release.';

let loading: Promise<typeof OidcProvider> | undefined;

/** The `oidc-provider` module, imported once, its runtime notice dropped. */
export function loadOidcProvider(): Promise<typeof OidcProvider> {
  loading ??= (async () => {
    const warn = console.warn;
    // Only that one line is dropped: anything else warned meanwhile passes through.
    console.warn = (...args: unknown[]): void => {
      if (typeof args[0] === 'string' && args[0].includes(UNSUPPORTED_RUNTIME_NOTICE)) return;
      warn.apply(console, args);
    };
    try {
      return await import('oidc-provider');
    } finally {
      console.warn = warn;
    }
  })();
  return loading;
}

/** What to log (debug) when oidc-provider would call this runtime unsupported; undefined on Node 22 LTS and later. */
export function runtimeNotice(release: { lts?: string | false } | undefined = process.release as { lts?: string | false }): string | undefined {
  const lts = release?.lts;
  if (typeof lts === 'string' && lts.charCodeAt(0) >= 'Jod'.charCodeAt(0)) return undefined;
  return `oidc-provider supports only Node.js 22 LTS and later as policy; this is Node.js ${process.versions.node}, which its engines (>= 20.19) accept and the gateway is tested on`;
}
