/**
 * @module dashboard/components/shell
 * The frame of a signed-in page: navigation, the stream's status, the user, and the current page.
 */

import { useEffect, useRef, useState } from 'preact/hooks';
import { AccessPage } from '../pages/access-page.js';
import { ActivityPage } from '../pages/activity-page.js';
import { ApprovalsPage } from '../pages/approvals-page.js';
import { ClientsPage } from '../pages/clients-page.js';
import { MetricsPage } from '../pages/metrics-page.js';
import { ServersPage } from '../pages/servers-page.js';
import { ToolsPage } from '../pages/tools-page.js';
import { useSession } from '../state/session.js';
import { hrefOf, PAGES, useRoute, type PageName } from '../state/use-route.js';

const TITLES: Record<PageName, string> = { servers: 'Servers', tools: 'Tools', activity: 'Activity', metrics: 'Metrics', access: 'Access', approvals: 'Approvals', clients: 'Clients' };

export function Shell({ onSignOut }: { onSignOut: () => void }) {
  const { user, events } = useSession();
  const route = useRoute();
  const [status, setStatus] = useState(events.status);
  useEffect(() => {
    const unsubscribe = events.onStatus(() => setStatus(events.status));
    // The stream may have opened between the first render and this subscription.
    setStatus(events.status);
    return unsubscribe;
  }, [events]);
  const heading = useRef<HTMLHeadingElement>(null);
  const firstRender = useRef(true);

  useEffect(() => {
    document.title = `${TITLES[route.page]} · Switchboard`;
    // Moving focus to the new page's heading tells screen readers the page changed.
    if (!firstRender.current) heading.current?.focus();
    firstRender.current = false;
  }, [route.page]);

  return (
    <>
      <a class="skip-link" href="#main" onClick={(event) => {
        event.preventDefault();
        heading.current?.focus();
      }}>Skip to content</a>
      <header class="top-bar">
        <span class="brand">Switchboard</span>
        <nav aria-label="Pages">
          <ul>
            {PAGES.map((page) => (
              <li key={page}>
                <a href={hrefOf(page)} aria-current={route.page === page ? 'page' : undefined}>
                  {TITLES[page]}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <span class={`stream stream-${status}`} title="The live event stream from the gateway">
          <span class="dot" aria-hidden="true" />
          {status === 'live' ? 'Live' : status === 'connecting' ? 'Connecting…' : 'Reconnecting…'}
        </span>
        <span class="user">
          {user.name}
          {user.admin ? <span class="tag">admin</span> : null}
        </span>
        <button type="button" class="quiet" onClick={onSignOut}>
          Sign out
        </button>
      </header>
      <main id="main" class="page">
        <h1 ref={heading} tabIndex={-1} class="page-title">
          {TITLES[route.page]}
        </h1>
        {route.page === 'servers' ? <ServersPage /> : null}
        {route.page === 'tools' ? <ToolsPage params={route.params} /> : null}
        {route.page === 'activity' ? <ActivityPage /> : null}
        {route.page === 'metrics' ? <MetricsPage /> : null}
        {route.page === 'access' ? <AccessPage /> : null}
        {route.page === 'approvals' ? <ApprovalsPage /> : null}
        {route.page === 'clients' ? <ClientsPage /> : null}
      </main>
    </>
  );
}
