#!/usr/bin/env node
// `npm start`: builds when dist/ is missing or older than src/, prepares .switchboard/, then runs the
// main job on the demo config.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;

function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

let needsBuild = true;
try {
  needsBuild = statSync(join(root, 'dist/cli/main.js')).mtimeMs < newest(join(root, 'src'));
} catch {
  needsBuild = true;
}
if (needsBuild) {
  process.stderr.write('building…\n');
  const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
mkdirSync(join(root, '.switchboard'), { recursive: true });
const args = process.argv.slice(2);
const run = spawnSync(process.execPath, [join(root, 'bin/switchboard.js'), ...(args.length > 0 ? args : ['tools', '--config', join(root, 'switchboard.yaml')])], {
  cwd: root,
  stdio: 'inherit',
});
process.exit(run.status ?? 1);
