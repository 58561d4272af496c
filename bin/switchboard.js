#!/usr/bin/env node
// The `switchboard` command. Runs the built CLI (npm run build creates dist/).
import('../dist/cli/main.js').then(
  ({ main }) => main(),
  (error) => {
    process.stderr.write(`switchboard: cannot load dist/cli/main.js (${error.code ?? error.message}); run \`npm run build\` first\n`);
    process.exit(1);
  },
);
