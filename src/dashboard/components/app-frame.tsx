/**
 * @module dashboard/components/app-frame
 * A tool's MCP App: its `ui://` HTML, fetched on request and shown in a frame sandboxed to scripts
 * only (an opaque origin: no access to this page, its storage or its token), loaded from a one-time
 * URL of the gateway that serves it under a policy allowing no network.
 */

import { useState } from 'preact/hooks';
import type { AppView } from '../../contract/api-contract.js';

/** The frame may run scripts, nothing else: no same-origin, popups, top navigation or forms. */
const APP_SANDBOX = 'allow-scripts';
import { useSession } from '../state/session.js';
import { Problem } from './problem.js';

export function AppFrame({ tool, uri }: { tool: string; uri: string }) {
  const { api } = useSession();
  const [app, setApp] = useState<AppView | undefined>(undefined);
  const [failure, setFailure] = useState<unknown>(undefined);
  const [loading, setLoading] = useState(false);
  const show = async (): Promise<void> => {
    setLoading(true);
    setFailure(undefined);
    try {
      setApp(await api.toolApp(tool));
    } catch (error) {
      setFailure(error);
    } finally {
      setLoading(false);
    }
  };
  return (
    <section class="app" aria-labelledby="app-title">
      <h3 id="app-title">App</h3>
      <p class="muted small">
        This tool has an interactive view, <code>{uri}</code>. It runs sandboxed: no access to this page, no network.
      </p>
      {app === undefined ? (
        <button type="button" onClick={() => void show()} disabled={loading}>
          {loading ? 'Loading the app…' : 'Show the app'}
        </button>
      ) : (
        <iframe class="app-frame" title={`App of ${tool}`} sandbox={APP_SANDBOX} src={app.frameUrl} referrerpolicy="no-referrer" />
      )}
      {failure === undefined ? null : <Problem error={failure} />}
    </section>
  );
}
