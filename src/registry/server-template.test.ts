import { describe, expect, test } from 'vitest';
import { ErrorCode } from '../errors.js';
import { checkParameters, parseServerTemplate } from './server-template.js';

describe('parseServerTemplate', () => {
  test('reports every problem at once', () => {
    expect(() =>
      parseServerTemplate(
        {
          command: 'node {{evil}}',
          args: ['{{missing}}'],
          cwd: '/srv/{{dir}}',
          parameters: [{ name: 'dir' }, { name: 'dir' }, { name: 'choice', type: 'enum' }, { name: 'p', pattern: '(' }],
        },
        't',
      ),
    ).toThrow(
      expect.objectContaining({
        code: ErrorCode.InvalidArgument,
        details: {
          problems: [
            'template.t.parameters.dir: declared twice',
            'template.t.parameters.choice: an enum needs `values`',
            expect.stringMatching(/^template\.t\.parameters\.p\.pattern: Invalid regular expression/),
            'template.t: {{missing}} is used but no parameter declares it',
            'template.t.cwd: must be fixed (no parameters)',
            'template.t.command: must be fixed (no parameters)',
          ],
        },
      }),
    );
  });

  test('rejects unknown keys', () => {
    expect(() => parseServerTemplate({ command: 'node', shell: true }, 't')).toThrow(/Unrecognized key/);
  });
});

describe('checkParameters', () => {
  const template = parseServerTemplate(
    {
      command: 'node',
      args: ['server.js', '{{folder}}'],
      parameters: [
        { name: 'folder', pattern: '[a-z0-9-]{1,20}' },
        { name: 'free', required: false },
        { name: 'port', type: 'integer', minimum: 1, maximum: 65535, required: false },
        { name: 'count', type: 'number', required: false },
        { name: 'offset', type: 'integer', minimum: -10, required: false },
        { name: 'verbose', type: 'boolean', default: false },
        { name: 'mode', type: 'enum', values: ['read', 'write'], default: 'read' },
      ],
    },
    't',
  );

  test('valid values, defaults applied, as strings', () => {
    expect(checkParameters(template, { folder: 'docs', port: 8080 }, 't')).toEqual({ values: { folder: 'docs', port: '8080', verbose: 'false', mode: 'read' }, violations: [] });
  });

  test('numbers are passed in their plain form; a string without a pattern may hold a slash (owner/repo)', () => {
    expect(checkParameters(template, { folder: 'a', count: '0x10', offset: -3, free: 'acme/tools' }, 't').values).toEqual({ folder: 'a', count: '16', offset: '-3', free: 'acme/tools', verbose: 'false', mode: 'read' });
    expect(checkParameters(template, { folder: 'a', count: '1e3' }, 't').values.count).toBe('1000');
  });

  test.each([
    [{ folder: 'a', count: -5 }, 'parameter "count" of template "t" must not be negative (a template that takes negative numbers says so with a minimum below 0)'],
    [{ folder: 'a', count: '-1e3' }, 'parameter "count" of template "t" must not be negative (a template that takes negative numbers says so with a minimum below 0)'],
    [{ folder: 'a', free: '../../etc' }, 'parameter "free" of template "t" must not contain a ".." path segment'],
    [{ folder: 'a', free: 'data/..' }, 'parameter "free" of template "t" must not contain a ".." path segment'],
    [{ folder: 'a', free: '/etc/passwd' }, 'parameter "free" of template "t" must not start with "/"'],
    [{ folder: 'a', free: '\\server\\share' }, 'parameter "free" of template "t" must not start with "\\"'],
    [{ folder: 'a', free: '~root' }, 'parameter "free" of template "t" must not start with "~"'],
    [{ folder: 'Docs' }, 'parameter "folder" of template "t" does not match the pattern [a-z0-9-]{1,20}'],
    [{}, 'parameter "folder" of template "t" is required'],
    [{ folder: 'a', free: '--inspect=0.0.0.0' }, 'parameter "free" of template "t" must not start with "-"'],
    [{ folder: 'a', free: 'line\nbreak' }, 'parameter "free" of template "t" must not contain control characters'],
    [{ folder: 'a', port: 70000 }, 'parameter "port" of template "t" must be at most 65535'],
    [{ folder: 'a', port: 1.5 }, 'parameter "port" of template "t" must be an integer'],
    [{ folder: 'a', verbose: 'yes' }, 'parameter "verbose" of template "t" must be true or false'],
    [{ folder: 'a', mode: 'admin' }, 'parameter "mode" of template "t" must be one of read, write'],
    [{ folder: 'a', nope: 1 }, 'template "t" has no parameter "nope"'],
  ])('%j is refused', (values, message) => {
    const { violations } = checkParameters(template, values, 't');
    expect(violations.map((violation) => [violation.rule, violation.message])).toEqual([['template', message]]);
  });
});
