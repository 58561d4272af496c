import { describe, expect, test } from 'vitest';
import { queryTermsOf, splitWords, stem, termsOf } from './search-terms.js';

describe('splitWords', () => {
  test.each([
    ['read_text_file', ['read', 'text', 'file']],
    ['getFileInfo', ['get', 'File', 'Info']],
    ['resolve-library-id', ['resolve', 'library', 'id']],
    ['fs__read_file', ['fs', 'read', 'file']],
    ['browser_take_screenshot2', ['browser', 'take', 'screenshot', '2']],
    ['HTTPServer.listen', ['HTTP', 'Server', 'listen']],
    ['sequentialthinking', ['sequentialthinking']],
  ])('%s', (text, words) => {
    expect(splitWords(text)).toEqual(words);
  });
});

describe('stem', () => {
  test('forms of one word share a stem', () => {
    for (const group of [['file', 'files'], ['create', 'created', 'creating', 'creation'], ['navigate', 'navigating', 'navigation'], ['entity', 'entities'], ['search', 'searches', 'searching'], ['run', 'running']]) {
      expect(new Set(group.map(stem)), group.join(' ')).toHaveLength(1);
    }
  });

  test('different words keep different stems; short words and numbers are left alone', () => {
    expect(stem('read')).not.toBe(stem('ready'));
    expect(stem('ls')).toBe('ls');
    expect(stem('v128s')).toBe('v128s');
    expect(stem('process')).toBe('process');
  });
});

test('termsOf drops filler words and lower-cases', () => {
  expect(termsOf('Read the complete contents of a File')).toEqual(['read', 'complet', 'content', 'fil']);
});

test('queryTermsOf adds the synonyms of everyday words, and drops stop words', () => {
  expect(queryTermsOf('remove')).toEqual(['remov', 'delet']);
  expect(queryTermsOf('the')).toEqual([]);
  expect(queryTermsOf('Screenshot')).toEqual(['screenshot']);
});
