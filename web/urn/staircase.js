// The staircase: the halting table on the tally lattice, one cell per tally (a, b) of the first draws,
// shaded where the table stops; the row's draw walks a path through it. Built once per row and rule (one
// batch of halts() in the worker); each draw only moves the path.
import { classColor, frame, h, linePath, paintSwatches, s } from '../charts.js';
import { reuse } from './reuse.js';

/**
 * The lattice of a row's trace with `l` classes: {N: cells per axis - 1, c: the row's answer, r: the
 * runner-up of the full vote (l > 2), cells: [a, b, side] per cell, tallies: Int32Array, cells × l, the
 * tally of every cell for halts()}. Axes: l = 2: a = votes for class 0, b = votes for class 1. l > 2:
 * a = votes for every other class, b = votes for c; the tallies put all other votes on r.
 */
export function lattice(trace, l) {
  const T = trace.votes.length;
  const N = Math.min(T, Math.max(16, Math.min(120, trace.treesUsed + 8)));
  const c = trace.classIndex;
  let r = -1;
  for (let i = 0; i < l; i++) if (i !== c && (r < 0 || trace.fullVotes[i] > trace.fullVotes[r])) r = i;
  const cells = [];
  for (let a = 0; a <= N; a++) {
    for (let b = 0; a + b <= T && b <= N; b++) {
      const side = l === 2 ? (a > b ? 0 : b > a ? 1 : -1) : (b > a ? 1 : a > b ? 0 : -1);
      cells.push([a, b, side]);
    }
  }
  const tallies = new Int32Array(cells.length * l);
  cells.forEach(([a, b], i) => {
    if (l === 2) { tallies[i * 2] = a; tallies[i * 2 + 1] = b; } else { tallies[i * l + r] = a; tallies[i * l + c] = b; }
  });
  return { N, c, r, cells, tallies };
}

function build({ N, c, r, cells, halts, names }) {
  const l = names.length;
  const xName = l === 2 ? `votes for ${names[0]}` : `votes for the other ${l - 1} classes`;
  const yName = l === 2 ? `votes for ${names[1]}` : `votes for ${names[c]}`;
  const f = frame({ w: 420, h: 340, x: [0, N + 1], y: [0, N + 1], xLabel: xName, yLabel: yName, title: 'Halting table on the tally lattice',
    margin: { l: 44, b: 40, r: 14 } });
  const cw = f.x(1) - f.x(0);
  const stopCells = [[], []]; // per side: SVG path data of the cells where the table stops
  const openCells = [];
  cells.forEach(([a, b, side], i) => {
    const stops = side >= 0 && halts[i] === 1;
    const d = `M${f.x(a).toFixed(1)} ${f.y(b + 1).toFixed(1)}h${(cw + 0.6).toFixed(2)}v${(cw + 0.6).toFixed(2)}h${(-cw - 0.6).toFixed(2)}z`;
    (stops ? stopCells[side] : openCells).push(d);
  });
  const sideColor = l === 2 ? [classColor(0), classColor(1)] : [classColor(r), classColor(c)];
  f.plot.append(s('path', { d: openCells.join(''), class: 'cell open' }));
  stopCells.forEach((side, i) => f.plot.append(s('path', { d: side.join(''), class: 'cell stop', fill: sideColor[i] })));
  const path = s('path', { class: 'path' });
  const dot = s('circle', { r: Math.max(3, cw * 0.45), class: 'dot' });
  f.plot.append(path, dot);
  // The legend is HTML below the picture, so long class names wrap instead of being cut off.
  const [first, second] = l === 2 ? [0, 1] : [c, r];
  const legend = h('ul', { class: 'legend' },
    h('li', {}, h('span', { class: 'swatch cell-stop', 'data-color': classColor(first) }), `stop, ${names[first]} leads`),
    h('li', {}, h('span', { class: 'swatch cell-stop', 'data-color': classColor(second) }),
      l > 2 ? 'stop, another class leads' : `stop, ${names[second]} leads`),
    h('li', {}, h('span', { class: 'swatch cell-open' }), 'keep drawing'));
  paintSwatches(legend);
  // With more than two classes the picture is a slice of the table: say which one, in a sentence.
  const slice = l > 2 ? h('p', { class: 'small muted', text: `With ${l} classes this is a slice of the table: every ` +
    `vote not for ${names[first]} is counted as a vote for ${names[second]}, the runner-up of the full vote ` +
    '(the hardest case for an early stop).' }) : null;
  const root = h('div', {}, f.root, legend, slice);
  return { root, f, path, dot };
}

/**
 * Draws the staircase into `container`. data: {table: lattice(trace, l) with `halts` (Uint8Array, one per
 * cell, 1 = the table stops) and `names` (class names) added, whose identity keys the picture; votes: the
 * trace's votes in query order; drawn; halted: the dot marks the stop}.
 */
export function render(container, { table, votes, drawn, halted }) {
  const { f, path, dot } = reuse(container, table, () => build(table));
  const { N, c } = table;
  const l = table.names.length;
  const pts = [[f.x(0.5), f.y(0.5)]];
  let a = 0; let b = 0;
  for (let k = 0; k < drawn; k++) {
    const v = votes[k];
    if (l === 2) { if (v === 0) a++; else b++; } else if (v === c) b++; else a++;
    if (a > N || b > N) break;
    pts.push([f.x(a + 0.5), f.y(b + 0.5)]);
  }
  path.setAttribute('d', linePath(pts));
  const [lx, ly] = pts[pts.length - 1];
  dot.setAttribute('cx', lx);
  dot.setAttribute('cy', ly);
  dot.setAttribute('class', halted ? 'stop-dot' : 'dot');
}
