/**
 * @module dashboard/main
 * The dashboard's entry: takes the token of a login link (out of the address bar), then renders the app.
 */

import { render } from 'preact';
import { loadToken, takeLinkToken } from './api/login-token.js';
import { shareSessionWithAuthorizationPage } from './api/session-share.js';
import { App } from './components/app.js';

const root = document.getElementById('app');
// For the page's lifetime: the OAuth authorization page of another tab may ask for this session.
shareSessionWithAuthorizationPage();
if (root !== null) render(<App initialToken={loadToken()} linkToken={takeLinkToken()} />, root);
