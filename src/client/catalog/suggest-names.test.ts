import { expect, test } from 'vitest';
import { editDistance, suggestNames, wordsOf } from './suggest-names.js';

const FILESYSTEM = ['read_file', 'read_text_file', 'read_media_file', 'read_multiple_files', 'write_file', 'edit_file', 'create_directory', 'list_directory', 'list_directory_with_sizes', 'directory_tree', 'move_file', 'search_files', 'get_file_info', 'list_allowed_directories'].map((name) => ({ name }));

test('a typo a few edits away is suggested (read_txt_file → read_text_file), best first', () => {
  expect(suggestNames('read_txt_file', FILESYSTEM)[0]).toBe('read_text_file');
  expect(suggestNames('lsit_directory', FILESYSTEM)[0]).toBe('list_directory');
  expect(suggestNames('list_directories', FILESYSTEM)[0]).toBe('list_directory');
});

test('containment still suggests, ahead of edits', () => {
  expect(suggestNames('ech', [{ name: 'echo' }, { name: 'each' }])).toEqual(['echo', 'each']);
  expect(suggestNames('allowed_directories', FILESYSTEM)).toEqual(['list_allowed_directories']);
});

test('the same words in another order are suggested', () => {
  expect(suggestNames('directory_list', FILESYSTEM)).toContain('list_directory');
});

test('unrelated names are not suggested; other spellings (the original name) count', () => {
  expect(suggestNames('get_weather', FILESYSTEM)).toEqual([]);
  expect(suggestNames('sum', [{ name: 'add' }])).toEqual([]);
  expect(suggestNames('read_txt_file', [{ name: 'fs__read_text_file', also: ['read_text_file'] }])).toEqual(['fs__read_text_file']);
  expect(suggestNames('', FILESYSTEM)).toEqual([]);
});

test('editDistance counts a swap as one edit and stops past its bound', () => {
  expect(editDistance('read_txt_file', 'read_text_file')).toBe(1);
  expect(editDistance('lsit', 'list')).toBe(1);
  expect(editDistance('kitten', 'sitting')).toBe(3);
  expect(editDistance('abcdef', 'uvwxyz', 2)).toBe(3);
  expect(wordsOf('readTextFile')).toEqual(['read', 'text', 'file']);
});
