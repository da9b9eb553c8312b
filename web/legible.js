// Chart text that stays legible at any width. The charts are SVGs with a fixed viewBox scaled to their box,
// so on a phone their text would shrink with them (to about 6 px). This sets each chart's font size, in the
// chart's own units, so that its text is at least MIN_TEXT_PX on screen; the axis labels and notes are
// sized in em (style.css) and follow. The letters inside the urn's marbles are markers, not text to read:
// when a marble is too small to hold a legible letter, the letter is left out (its colour and the tally say
// the class).

/** The smallest chart text on screen, in CSS pixels. */
export const MIN_TEXT_PX = 11;

/** Sets `svg`'s font size from its on-screen width and viewBox width; returns the scale (screen px per unit). */
export function fitChartText(svg) {
  const box = svg.viewBox?.baseVal;
  const width = svg.getBoundingClientRect().width;
  if (!box || !box.width || !width) return 0;
  const k = width / box.width;
  svg.style.fontSize = `${(MIN_TEXT_PX / Math.min(1, k)).toFixed(2)}px`;
  for (const key of svg.querySelectorAll('text.marble-key')) {
    const size = parseFloat(key.style.fontSize) || 0;
    key.classList.toggle('too-small', size * k < MIN_TEXT_PX);
  }
  return k;
}

/** Keeps every svg.chart of the page (present and future) legible as it is drawn and resized. */
export function keepChartsLegible(root = document.body) {
  const resized = new ResizeObserver((entries) => { for (const e of entries) fitChartText(e.target); });
  const watch = (node) => {
    if (!(node instanceof Element)) return;
    const charts = node.matches('svg.chart') ? [node] : node.querySelectorAll('svg.chart');
    for (const svg of charts) { resized.observe(svg); fitChartText(svg); }
  };
  watch(root);
  new MutationObserver((records) => {
    for (const r of records) {
      for (const node of r.addedNodes) watch(node);
      if (r.type === 'childList' && r.target instanceof Element) {
        const svg = r.target.closest('svg.chart');
        if (svg) fitChartText(svg);
      }
    }
  }).observe(root, { childList: true, subtree: true });
}
