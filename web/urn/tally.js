// The running tally: votes per class among the marbles drawn so far, and once halted the full vote of all
// trees beside it.
import { classColor, classSwatch, h, paintSwatches } from '../charts.js';

/**
 * Draws the tally table into `container`. data: {names: class names, tally: votes per class drawn so far,
 * fullVotes: votes per class of all trees, drawn, halted: show the full vote}.
 */
export function render(container, { names, tally, fullVotes, drawn, halted }) {
  const max = Math.max(1, ...tally);
  const order = names.map((_, i) => i).filter((i) => tally[i] > 0 || fullVotes[i] > 0 || names.length <= 6);
  const list = h('table', { class: 'tally-table' });
  list.append(h('caption', { text: `Running tally after ${drawn} draws` }));
  const head = list.createTHead().insertRow();
  for (const c of ['class', 'drawn', 'share', 'all trees']) head.append(h('th', { scope: 'col', text: c }));
  const body = list.createTBody();
  for (const i of order) {
    const tr = body.insertRow();
    tr.append(h('th', { scope: 'row' }, classSwatch(i), h('span', { class: 'name', title: names[i], text: names[i] })));
    tr.append(h('td', { class: 'num', text: String(tally[i]) }));
    const bar = h('span', { class: 'bar', 'data-color': classColor(i) });
    bar.style.width = `${(100 * tally[i]) / max}%`;
    tr.append(h('td', { class: 'barcell' }, bar));
    tr.append(h('td', { class: 'num muted', text: halted ? String(fullVotes[i]) : '' }));
  }
  container.replaceChildren(list);
  paintSwatches(container);
}
