// The urn picture: one marble per tree vote in a jar; the marbles drawn so far sit in the tray, in the
// order the trees were asked. Built once per trace (the marbles then move by CSS transitions).
import { classColor, classInk, classKey, s, svgRoot } from '../charts.js';
import { rng } from '../math.js';
import { reuse } from './reuse.js';

const W = 560;
const H = 300;
const URN = { x: 20, y: 40, w: 250, h: 240 }; // inner box of the jar
const TRAY = { x: 300, y: 40, w: 240, h: 240 };

function build(T, row) {
  let cell = Math.floor(Math.sqrt((URN.w * URN.h) / T));
  while (cell > 3 && Math.ceil(T / Math.floor(URN.w / cell)) * cell > URN.h) cell -= 0.5;
  const cols = Math.floor(URN.w / cell);
  const trayCols = Math.floor(TRAY.w / cell);
  const r = cell * 0.42;
  // Slots fill the jar from the bottom; marble k (k-th in query order) sits in a shuffled slot.
  const slots = Array.from({ length: T }, (_, i) => i);
  const rand = rng(row * 31 + 7);
  for (let i = T - 1; i > 0; i--) { const j = Math.floor(rand() * (i + 1)); [slots[i], slots[j]] = [slots[j], slots[i]]; }
  const svg = svgRoot(W, H, 'The urn of tree votes',
    `${T} marbles, one per tree; drawn marbles move to the tray on the right in the order the trees are asked.`);
  svg.classList.add('urn-svg');
  // The jar: a rounded body with a neck.
  svg.append(s('path', {
    class: 'jar',
    d: `M${URN.x + 60} ${URN.y - 22} L${URN.x + 60} ${URN.y - 4} Q${URN.x - 10} ${URN.y} ${URN.x - 10} ${URN.y + 60} ` +
      `L${URN.x - 10} ${URN.y + URN.h - 10} Q${URN.x - 10} ${URN.y + URN.h + 12} ${URN.x + 20} ${URN.y + URN.h + 12} ` +
      `L${URN.x + URN.w - 20} ${URN.y + URN.h + 12} Q${URN.x + URN.w + 10} ${URN.y + URN.h + 12} ${URN.x + URN.w + 10} ${URN.y + URN.h - 10} ` +
      `L${URN.x + URN.w + 10} ${URN.y + 60} Q${URN.x + URN.w + 10} ${URN.y} ${URN.x + URN.w - 60} ${URN.y - 4} L${URN.x + URN.w - 60} ${URN.y - 22}`,
  }));
  svg.append(s('text', { x: URN.x + URN.w / 2, y: URN.y - 28, 'text-anchor': 'middle', class: 'small' }, 'urn: trees not asked yet'));
  svg.append(s('rect', { x: TRAY.x - 6, y: TRAY.y - 6, width: TRAY.w + 12, height: TRAY.h + 12, rx: 10, class: 'tray' }));
  svg.append(s('text', { x: TRAY.x + TRAY.w / 2, y: TRAY.y - 28, 'text-anchor': 'middle', class: 'small' }, 'drawn, in the order asked'));
  const g = s('g', { class: 'marbles' });
  const marbles = [];
  for (let k = 0; k < T; k++) {
    const slot = slots[k];
    const ux = URN.x + (slot % cols) * cell + cell / 2;
    const uy = URN.y + URN.h - Math.floor(slot / cols) * cell - cell / 2;
    const tx = TRAY.x + (k % trayCols) * cell + cell / 2;
    const ty = TRAY.y + Math.floor(k / trayCols) * cell + cell / 2;
    const c = s('circle', { cx: ux, cy: uy, r, class: 'marble hidden' });
    // Drawn marbles carry their class's letter when there is room for it (colour is not the only cue).
    const key = r >= 5 ? s('text', { x: ux, y: uy + r * 0.38, 'text-anchor': 'middle', class: 'marble-key' }) : null;
    if (key) key.style.fontSize = `${Math.min(11, r * 1.15).toFixed(1)}px`;
    const m = s('g', { class: 'marble-g' }, c, key);
    m.dataset.dx = String(tx - ux);
    m.dataset.dy = String(ty - uy);
    g.append(m);
    marbles.push({ m, c, key });
  }
  svg.append(g);
  return { root: svg, marbles };
}

/**
 * Draws the urn into `container`. data: {votes: the trace's class index per tree in query order (its
 * identity keys the layout), row: the test row (places the marbles), drawn: marbles drawn, peek: show the
 * colours of the marbles still in the jar}.
 */
export function render(container, { votes, row, drawn, peek }) {
  const { marbles } = reuse(container, votes, () => build(votes.length, row));
  marbles.forEach(({ m, c, key }, k) => {
    const color = classColor(votes[k]);
    const shown = k < drawn || peek;
    if (k < drawn) {
      c.setAttribute('class', 'marble drawn');
      m.style.transform = `translate(${m.dataset.dx}px, ${m.dataset.dy}px)`;
    } else {
      c.setAttribute('class', `marble ${peek ? 'peek' : 'hidden'}`);
      m.style.transform = '';
    }
    c.style.fill = shown ? color : '';
    if (key) {
      key.textContent = shown ? classKey(votes[k]) : '';
      key.style.fill = classInk(votes[k]);
      key.style.opacity = k < drawn ? '1' : '0.6';
    }
  });
}
