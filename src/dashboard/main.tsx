/**
 * @module dashboard/main
 * The dashboard's entry: takes the token of a login link, then renders the app.
 */

import { render } from 'preact';
import { takeLoginToken } from './api/login-token.js';
import { shareSessionWithAuthorizationPage } from './api/session-share.js';
import { App } from './components/app.js';

const root = document.getElementById('app');
// For the page's lifetime: the OAuth authorization page of another tab may ask for this session.
shareSessionWithAuthorizationPage();
if (root !== null) render(<App initialToken={takeLoginToken()} />, root);
