import { describe, expect, test } from 'vitest';
import { normalizeServerEntry } from '../config/normalize-config.js';
import type { ConfigIssue } from '../errors.js';
import { renderTemplate } from './render-template.js';
import { parseServerTemplate } from './server-template.js';

const hostEnv = { HOME: '/home/gw', SECRET: 'host-secret-value' };
const template = parseServerTemplate(
  { command: 'node', args: ['s.js', '--dir={{dir}}', '{{extra}}', '/data/{{team}}{{folder}}', '${HOME}/x', '$${HOME}'], env: { TOKEN: '{{token}}', FIXED: 'admin' }, parameters: [{ name: 'dir' }, { name: 'extra', required: false }, { name: 'token', required: false }, { name: 'team', required: false }, { name: 'folder', required: false }] },
  't',
);

function render(values: Record<string, string>, overrides: Record<string, unknown> = {}) {
  return renderTemplate({ template, values, templateEnv: template.env, hostEnv, overrides, path: 'servers.t' });
}

describe('renderTemplate', () => {
  test('fills placeholders, drops arguments of missing optional parameters, expands only the admin\'s ${VAR}', () => {
    expect(render({ dir: '${HOME}' })).toEqual({ entry: { command: 'node', args: ['s.js', '--dir=${HOME}', '/data/', '/home/gw/x', '${HOME}'], env: { FIXED: 'admin' } }, issues: [] });
    expect(render({ dir: 'a', extra: 'b', token: 't' }).entry).toMatchObject({ args: ['s.js', '--dir=a', 'b', '/data/', '/home/gw/x', '${HOME}'], env: { TOKEN: 't', FIXED: 'admin' } });
  });

  test('adjacent values joined into ${VAR:-x} stay literal, through the normalizer too (issue 14, finding 2)', () => {
    const { entry } = render({ dir: 'a', team: '$', folder: '{SECRET:-x}' }, { include: ['${SECRET}'] });
    expect(entry.args).toContain('/data/${SECRET:-x}');
    const errors: ConfigIssue[] = [];
    const spec = normalizeServerEntry('t', entry, { path: 'servers.t', baseDir: '/', env: hostEnv, errors, warnings: [], expand: false });
    expect(errors).toEqual([]);
    expect(JSON.stringify(spec)).not.toContain('host-secret-value');
    expect(spec).toMatchObject({ args: expect.arrayContaining(['/data/${SECRET:-x}']), include: ['${SECRET}'] });
  });

  test('an unset variable of the admin\'s text is reported by path', () => {
    const unset = parseServerTemplate({ command: '${NOPE}', args: ['{{a}}${ALSO_NOPE}'], parameters: [{ name: 'a' }] }, 'u');
    const { issues } = renderTemplate({ template: unset, values: { a: 'v' }, templateEnv: {}, hostEnv, path: 'servers.u' });
    expect(issues.map((issue) => [issue.path, issue.message])).toEqual([
      ['servers.u.args.0', 'environment variable ALSO_NOPE is not set'],
      ['servers.u.command', 'environment variable NOPE is not set'],
    ]);
  });
});
