import { expect, test } from 'vitest';
import { splitCommandLine } from './split-command-line.js';

test.each([
  ['server.py', ['server.py']],
  ['server.py --flag value', ['server.py', '--flag', 'value']],
  [`tool 'two words' "and \\"quoted\\"" back\\ slash`, ['tool', 'two words', 'and "quoted"', 'back slash']],
  ['  spaced   out  ', ['spaced', 'out']],
  [`empty '' arg`, ['empty', '', 'arg']],
  ['no $(shell) `here` ;|&', ['no', '$(shell)', '`here`', ';|&']],
])('%s', (line, words) => {
  expect(splitCommandLine(line)).toEqual({ words });
});

test('an unbalanced quote is an error', () => {
  expect(splitCommandLine(`a "b`)).toEqual({ error: 'unbalanced double quote' });
  expect(splitCommandLine(`a 'b`)).toEqual({ error: 'unbalanced single quote' });
});
