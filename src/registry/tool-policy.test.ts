import { describe, expect, it } from 'vitest';
import type { ToolRule } from './access-types.js';
import { annotationsPass, effectiveAnnotations, evaluateToolPolicy, toolGlobMatches, type PolicyCaller, type PolicyTool } from './tool-policy.js';

let seq = 0;
function rule(fields: Omit<ToolRule, 'id' | 'createdAt'>): ToolRule {
  return { id: `r${++seq}`, createdAt: '2026-01-01T00:00:00.000Z', ...fields };
}
const read: PolicyTool = { name: 'kb_search', server: 'kb', originalName: 'search', annotations: { readOnlyHint: true } };
const write: PolicyTool = { name: 'kb_write', server: 'kb', originalName: 'write', annotations: { readOnlyHint: false, destructiveHint: false } };
const wipe: PolicyTool = { name: 'wipe', server: 'db', originalName: 'wipe' };
const alice: PolicyCaller = { userName: 'alice', groups: ['support'] };

describe('evaluateToolPolicy', () => {
  it('allows everything when no rule applies', () => {
    expect(evaluateToolPolicy([], alice, wipe)).toEqual({ allowed: true, reason: 'no-rules' });
    const other = rule({ scope: { kind: 'user', name: 'bob' }, effect: 'deny' });
    expect(evaluateToolPolicy([other], alice, wipe).allowed).toBe(true);
  });

  it('denies by name glob, server glob and annotation, naming the rule', () => {
    const byName = rule({ scope: { kind: 'global' }, effect: 'deny', tools: ['wi*'] });
    expect(evaluateToolPolicy([byName], alice, wipe)).toEqual({ allowed: false, reason: 'denied-by-rule', rule: byName });
    expect(evaluateToolPolicy([byName], alice, read).allowed).toBe(true);
    const byServer = rule({ scope: { kind: 'group', name: 'support' }, effect: 'deny', servers: ['d?'] });
    expect(evaluateToolPolicy([byServer], alice, wipe).rule).toBe(byServer);
    expect(evaluateToolPolicy([byServer], alice, write).allowed).toBe(true);
    const destructive = rule({ scope: { kind: 'user', name: 'alice' }, effect: 'deny', annotations: { destructiveHint: true } });
    // No annotations at all: destructive by the spec's default.
    expect(evaluateToolPolicy([destructive], alice, wipe).allowed).toBe(false);
    expect(evaluateToolPolicy([destructive], alice, write).allowed).toBe(true);
    expect(evaluateToolPolicy([destructive], alice, read).allowed).toBe(true);
    const openWorld = rule({ scope: { kind: 'global' }, effect: 'deny', annotations: { openWorldHint: true } });
    expect(evaluateToolPolicy([openWorld], alice, { ...read, annotations: { readOnlyHint: true, openWorldHint: false } }).allowed).toBe(true);
    expect(evaluateToolPolicy([openWorld], alice, read).allowed).toBe(false);
  });

  it('turns into an allow-list once an allow rule applies, and deny wins over allow', () => {
    const readOnly = rule({ scope: { kind: 'group', name: 'support' }, effect: 'allow', annotations: { readOnlyHint: true } });
    expect(evaluateToolPolicy([readOnly], alice, read)).toEqual({ allowed: true, reason: 'allowed-by-rule', rule: readOnly });
    expect(evaluateToolPolicy([readOnly], alice, write)).toEqual({ allowed: false, reason: 'not-allowed-by-any-rule' });
    const denySearch = rule({ scope: { kind: 'global' }, effect: 'deny', tools: ['kb/search'] });
    expect(evaluateToolPolicy([readOnly, denySearch], alice, read)).toEqual({ allowed: false, reason: 'denied-by-rule', rule: denySearch });
  });

  it('applies endpoint rules only on that endpoint', () => {
    const onSupport = rule({ scope: { kind: 'endpoint', name: 'support' }, effect: 'deny', tools: ['kb_*'] });
    expect(evaluateToolPolicy([onSupport], { ...alice, endpoint: 'support' }, read).allowed).toBe(false);
    expect(evaluateToolPolicy([onSupport], alice, read).allowed).toBe(true);
    expect(evaluateToolPolicy([onSupport], { ...alice, endpoint: 'data' }, read).allowed).toBe(true);
  });
});

describe('tool globs and annotations', () => {
  it('match the listed name, the original name, or server/original', () => {
    expect(toolGlobMatches(['kb_search'], read)).toBe(true);
    expect(toolGlobMatches(['search'], read)).toBe(true);
    expect(toolGlobMatches(['kb/*'], read)).toBe(true);
    expect(toolGlobMatches(['db/*'], read)).toBe(false);
    expect(toolGlobMatches(['kb/search_*'], read)).toBe(false);
  });

  it('apply the spec defaults to missing hints', () => {
    expect(effectiveAnnotations({})).toEqual({ readOnlyHint: false, destructiveHint: true, openWorldHint: true });
    expect(effectiveAnnotations({ annotations: { readOnlyHint: true, destructiveHint: true } }).destructiveHint).toBe(false);
    expect(annotationsPass({ readOnlyHint: true }, write)).toBe(false);
    expect(annotationsPass({ readOnlyHint: false, destructiveHint: false }, write)).toBe(true);
  });
});
