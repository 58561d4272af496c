/**
 * An automated accessibility audit of the page a test shows: axe-core's WCAG 2.0/2.1 A and AA rules,
 * in the light and the dark colour scheme (the dashboard has a palette for each, so contrast is
 * checked for both). Every violation, whatever its impact, is reported as one entry per rule: id,
 * impact, help and the selectors of the offending elements.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/** The WCAG levels the dashboard promises (A and AA of WCAG 2.0 and 2.1). */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** The part of one axe violation the report uses, as the page hands it back. */
export interface AxeViolation {
  id: string;
  impact: string;
  help: string;
  helpUrl: string;
  nodes: Array<{ target: string; summary: string }>;
}

let source: string | undefined;
/** axe.min.js, read once. */
function axeSource(): string {
  source ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  return source;
}

// Code that runs in the page is passed as strings: the tests are type-checked without the DOM library.
// Only the violations come back, trimmed to what the report prints.
const RUN = `axe.run(document, { runOnly: { type: 'tag', values: ${JSON.stringify(AXE_TAGS)} }, resultTypes: ['violations'] })
  .then((results) => results.violations.map((violation) => ({
    id: violation.id,
    impact: violation.impact ?? 'unknown',
    help: violation.help,
    helpUrl: violation.helpUrl,
    nodes: violation.nodes.map((node) => ({ target: node.target.flat().join(' '), summary: node.failureSummary ?? '' })),
  })))`;

/** The violations axe finds on the page as it is now, in its current colour scheme. */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  // The dashboard's Content-Security-Policy (script-src 'self') blocks an injected <script> tag
  // (page.addScriptTag); evaluating the source is not subject to it. Once per document.
  if (!(await page.evaluate("typeof window.axe === 'object'"))) await page.evaluate(axeSource());
  return page.evaluate<AxeViolation[]>(RUN);
}

/** One readable line per violation (plus one per offending element). */
export function describeViolations(violations: readonly AxeViolation[]): string[] {
  return violations.map((violation) =>
    [`${violation.id} (${violation.impact}): ${violation.help} — ${violation.helpUrl}`, ...violation.nodes.map((node) => `    ${node.target}\n      ${node.summary.replace(/\n/g, '\n      ')}`)].join('\n'),
  );
}

/**
 * Audits the page in the light and the dark colour scheme: one report line per violation, each naming
 * `label` and the scheme; none when axe finds nothing. Leaves the page in the light scheme (the
 * browser's default, which the screenshots show).
 */
export async function auditAccessibility(page: Page, label: string): Promise<string[]> {
  const found: string[] = [];
  try {
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      for (const line of describeViolations(await axeViolations(page))) found.push(`${label} [${colorScheme}] ${line}`);
    }
  } finally {
    await page.emulateMedia({ colorScheme: 'light' });
  }
  return found;
}
