/**
 * axe-core in the page: its source evaluated through the browser's protocol (the shell's
 * Content-Security-Policy forbids inline scripts, which an injected <script> would be), then
 * run over the whole document.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';

let source: string | undefined;

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  helpUrl: string;
  nodes: Array<{ target: unknown[]; html: string; failureSummary?: string }>;
}

/** The violations of the given impacts on the page as it is now. */
export async function axeViolations(page: Page, impacts: string[]): Promise<AxeViolation[]> {
  source ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(source);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, opts: object): Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, helpUrl: v.helpUrl, nodes: v.nodes.map((n) => ({ target: n.target, html: n.html, failureSummary: n.failureSummary })) }));
  });
  return violations.filter((v) => v.impact !== null && impacts.includes(v.impact));
}

/** One paragraph per violation, naming the rule and up to five of its elements. */
export function describeViolations(violations: AxeViolation[]): string {
  return violations.map((v) => [
    `${v.impact} ${v.id}: ${v.help} (${v.helpUrl})`,
    ...v.nodes.slice(0, 5).map((n) => `  ${JSON.stringify(n.target)} ${n.html.slice(0, 200)}\n    ${(n.failureSummary ?? '').replace(/\n/g, ' ')}`),
  ].join('\n')).join('\n\n');
}
