// Checks of a view as laid out in the browser, shared by the e2e tests: each returns a list of findings
// (empty when the view passes), computed in the page (playwright's page.evaluate).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../scripts/serve.mjs';

/** The ids of the demo's views, in page order. */
export const VIEWS = ['data-view', 'urn-view', 'test-view', 'prior-view', 'concepts-view', 'classify-view', 'byom-view'];
export const WIDTHS = { desktop: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } };

/** Inputs and selects of view `id` that are collapsed, clipped or too narrow to use, and selects whose options do not fit. */
export function fieldProblems(page, id) {
  return page.$eval(`#${id}`, (view) => {
    const out = [];
    const canvas = document.createElement('canvas').getContext('2d');
    for (const el of view.querySelectorAll('input, select, textarea')) {
      if (el.closest('[hidden]') || el.type === 'hidden' || getComputedStyle(el).display === 'none') continue;
      const r = el.getBoundingClientRect();
      const name = `${el.tagName.toLowerCase()}#${el.id}`;
      const least = el.type === 'file' ? 180 : el.type === 'checkbox' || el.type === 'radio' ? 12 : 44;
      if (r.width < least) out.push(`${name} is ${r.width.toFixed(0)} px wide (at least ${least})`);
      const box = view.getBoundingClientRect();
      if (r.left < box.left - 1 || r.right > box.right + 1) out.push(`${name} sticks out of its view`);
      if (el.tagName === 'SELECT') {
        const cs = getComputedStyle(el);
        canvas.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
        const room = el.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 18; // the arrow
        for (const o of el.options) {
          const w = canvas.measureText(o.text).width;
          if (w > room) out.push(`${name}: option "${o.text}" needs ${w.toFixed(0)} px, has ${room.toFixed(0)}`);
        }
      }
    }
    return out;
  });
}

/** Text in the charts of view `id` drawn smaller than `least` CSS pixels on screen. */
export function smallChartText(page, id, least = 11) {
  return page.$eval(`#${id}`, (view, min) => {
    const out = [];
    for (const t of view.querySelectorAll('svg.chart text')) {
      if (t.closest('[hidden]') || !t.textContent.trim()) continue;
      const cs = getComputedStyle(t);
      if (cs.display === 'none' || cs.visibility === 'hidden') continue;
      const ctm = t.getScreenCTM();
      if (!ctm) continue;
      const px = parseFloat(cs.fontSize) * Math.hypot(ctm.a, ctm.b);
      if (px < min - 0.05) out.push(`"${t.textContent.slice(0, 30)}" at ${px.toFixed(1)} px`);
    }
    return out.slice(0, 8);
  }, least);
}

/**
 * Words of view `id` laid out over two lines (broken inside the word). Words are split at spaces and at
 * hyphens and slashes, where a line may break.
 */
export function brokenWords(page, id) {
  return page.$eval(`#${id}`, (view) => {
    const out = [];
    const walker = document.createTreeWalker(view, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.closest('[hidden], svg, script, style, option, .sr-only')) continue;
      if (parent.closest('.table-scroll') && parent.closest('td, th')) continue; // tables that scroll keep one line
      const text = node.textContent;
      for (const m of text.matchAll(/[^\s\-/–—]+/g)) {
        if (m[0].length < 3) continue;
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const rects = [...range.getClientRects()].filter((r) => r.width > 0);
        if (rects.length > 1 && Math.abs(rects[0].top - rects.at(-1).top) > 2) out.push(`"${m[0]}" in ${parent.tagName.toLowerCase()}.${parent.className}`);
      }
    }
    return out.slice(0, 8);
  });
}

/** The axe-core source (the npm devDependency), injected into the page by evaluate (not subject to its CSP). */
const AXE = readFileSync(join(repoRoot, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');

/** axe-core's violations of WCAG 2.x levels A and AA in view `id`: [{id, impact, nodes: [target…]}]. */
export async function axeViolations(page, id) {
  if (!await page.evaluate(() => typeof window.axe === 'object')) await page.evaluate(AXE);
  return page.evaluate(async (sel) => {
    const result = await window.axe.run(sel, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
      resultTypes: ['violations'],
    });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
      nodes: v.nodes.slice(0, 4).map((n) => `${n.target.join(' ')}: ${n.failureSummary?.split('\n')[1]?.trim() ?? ''}`) }));
  }, `#${id}`);
}
