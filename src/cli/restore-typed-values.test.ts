import { cac } from 'cac';
import { expect, test } from 'vitest';
import { restoreTypedValues } from './restore-typed-values.js';

function parsed(argv: string[]): Record<string, unknown> {
  const cli = cac('t');
  cli.command('serve').option('--user <name>', '').option('--idp-client-id <id>', '').option('--limit <l>', '').option('--port <p>', '').option('--token <t>', '').option('--json', '');
  cli.parse(['node', 't', ...argv], { run: false });
  restoreTypedValues(cli.options, argv);
  return cli.options;
}

test('values cac would make numbers of are the text typed: leading zeros, long ids, every repeat; booleans and words unchanged', () => {
  const digits = '0'.repeat(8) + '12345678901234567890123456';
  const options = parsed(['serve', '--user', '007', '--idp-client-id=012345678901234567890', '--limit', '10', '--limit', 'a=1', '--port', '0', '--token', digits, '--json']);
  expect(options.user).toBe('007');
  expect(options.idpClientId).toBe('012345678901234567890');
  expect(options.limit).toEqual(['10', 'a=1']);
  expect(options.port).toBe('0');
  expect(options.token).toBe(digits);
  expect(options.json).toBe(true);
  // Without the restore cac says 7: the case above is not vacuous.
  const cli = cac('t');
  cli.command('serve').option('--user <name>', '');
  cli.parse(['node', 't', 'serve', '--user', '007'], { run: false });
  expect(cli.options.user).toBe(7);
});
