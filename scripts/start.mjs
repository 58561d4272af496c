#!/usr/bin/env node
// `npm start`: builds when dist/ is missing or older than src/, prepares .switchboard/, then runs the
// main job: the gateway (`switchboard serve`) on the demo config (switchboard.yaml) with the embedded
// SQLite registry. Arguments after `npm start --` replace the default command.
import { spawn, spawnSync } from 'node:child_process';
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
mkdirSync(join(root, '.switchboard'), { recursive: true, mode: 0o700 });
const args = process.argv.slice(2);
const child = spawn(process.execPath, [join(root, 'bin/switchboard.js'), ...(args.length > 0 ? args : ['serve', '--config', join(root, 'switchboard.yaml')])], {
  cwd: root,
  stdio: 'inherit',
  // Its own process group: a terminal's Ctrl-C reaches only us, and we pass it on exactly once (a
  // second signal makes the gateway stop at once instead of letting running calls finish).
  detached: true,
});
// The gateway shuts down gracefully on these: pass them on, and exit with its code once it has.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (child.exitCode === null) child.kill(signal);
  });
}
child.on('exit', (code, signal) => process.exit(code ?? (signal === null ? 1 : 128)));
