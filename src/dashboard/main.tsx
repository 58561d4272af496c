/**
 * @module dashboard/main
 * The dashboard's entry: takes the token of a login link, then renders the app.
 */

import { render } from 'preact';
import { takeLoginToken } from './api/login-token.js';
import { App } from './components/app.js';

const root = document.getElementById('app');
if (root !== null) render(<App initialToken={takeLoginToken()} />, root);
