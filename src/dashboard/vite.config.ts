/**
 * @module dashboard/vite.config
 * Builds the dashboard into `dist/dashboard/` (run by `npm run build`). Everything is bundled: the
 * gateway serves `index.html` at `/` and the hashed files under `/assets/`; nothing is loaded from a CDN.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: here,
  // Relative URLs, so the dashboard also works behind a proxy that mounts the gateway under a path.
  base: './',
  logLevel: 'warn',
  publicDir: false,
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('../../dist/dashboard/', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    // Every browser the dashboard supports preloads modules natively.
    modulePreload: { polyfill: false },
    target: 'es2022',
    sourcemap: false,
    // Nothing is inlined as a data: URL (the gateway's Content-Security-Policy may forbid it).
    assetsInlineLimit: 0,
    reportCompressedSize: false,
  },
});
