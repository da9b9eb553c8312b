// Tiny SVG helpers for the demo's pictures (no dependency, CSP-safe: attributes only, no inline style text).
const NS = 'http://www.w3.org/2000/svg';

/** Creates an SVG element with attributes; children may be nodes or strings (text). */
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) el.setAttribute(k, String(v));
  for (const c of children) if (c !== null && c !== undefined) el.append(typeof c === 'string' ? document.createTextNode(c) : c);
  return el;
}

/** Creates an HTML element with properties / attributes. */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') el.className = v;
    else if (k === 'text') el.textContent = v;
    else if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children) if (c !== null && c !== undefined) el.append(c);
  return el;
}

/** An empty responsive SVG with a viewBox of w × h, an accessible title and description. */
export function svgRoot(w, hgt, title, desc = '') {
  const root = s('svg', { viewBox: `0 0 ${w} ${hgt}`, role: 'img', class: 'chart', preserveAspectRatio: 'xMidYMid meet' });
  root.append(s('title', {}, title));
  if (desc) root.append(s('desc', {}, desc));
  return root;
}

/**
 * How much larger than at full size a chart `w` units wide draws its text on this screen (1 on wide
 * screens): on a narrow one the chart spans about the window's width less the page's padding, and
 * legible.js keeps its text at least 11 px, i.e. 1 / scale times its size in the chart's units.
 */
export function textGrowth(w) {
  const width = typeof window === 'undefined' ? w : window.innerWidth - 48;
  return Math.min(1.6, Math.max(1, w / Math.max(1, width)));
}

/** Linear scale [d0, d1] → [r0, r1]. */
export function scale(d0, d1, r0, r1) {
  const k = d1 === d0 ? 0 : (r1 - r0) / (d1 - d0);
  const f = (x) => r0 + (x - d0) * k;
  f.invert = (y) => d0 + (y - r0) / (k || 1);
  return f;
}

/** "Nice" tick values covering [a, b], about n of them. */
export function ticks(a, b, n = 5) {
  if (!(b > a)) return [a];
  const raw = (b - a) / n;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((st) => st >= raw) ?? raw;
  const out = [];
  for (let v = Math.ceil(a / step - 1e-9) * step; v <= b + 1e-9; v += step) out.push(Number(v.toFixed(10)));
  return out;
}

/**
 * Axes frame: returns {root, x, y, plot} where plot is a <g> to draw in; margins fit labels.
 * opts: {w, h, x: [a, b], y: [a, b], xLabel, yLabel, title, desc, xTicks, yTicks, xFormat, yFormat}
 */
export function frame(opts) {
  const w = opts.w ?? 420;
  const hh = opts.h ?? 240;
  // On a narrow screen the chart is scaled down and legible.js enlarges its text to keep it at least 11 px:
  // the left and bottom margins (tick labels, axis labels) grow by as much, so that the texts do not collide.
  const grow = textGrowth(w);
  const m0 = { l: 48, r: 14, t: 12, b: 40, ...(opts.margin ?? {}) };
  const m = { ...m0, l: Math.round(m0.l * grow), b: Math.round(m0.b * grow) };
  const root = svgRoot(w, hh, opts.title, opts.desc);
  const x = scale(opts.x[0], opts.x[1], m.l, w - m.r);
  const y = scale(opts.y[0], opts.y[1], hh - m.b, m.t);
  const axes = s('g', { class: 'axes' });
  const xf = opts.xFormat ?? ((v) => String(v));
  const yf = opts.yFormat ?? ((v) => String(v));
  for (const v of opts.xTicks ?? ticks(opts.x[0], opts.x[1], 5)) {
    axes.append(s('line', { x1: x(v), x2: x(v), y1: hh - m.b, y2: hh - m.b + 4, class: 'tick' }));
    axes.append(s('text', { x: x(v), y: hh - m.b + 16 * grow, 'text-anchor': 'middle' }, xf(v)));
  }
  for (const v of opts.yTicks ?? ticks(opts.y[0], opts.y[1], 4)) {
    axes.append(s('line', { x1: m.l, x2: w - m.r, y1: y(v), y2: y(v), class: 'grid' }));
    axes.append(s('text', { x: m.l - 6, y: y(v) + 4, 'text-anchor': 'end' }, yf(v)));
  }
  axes.append(s('line', { x1: m.l, x2: w - m.r, y1: hh - m.b, y2: hh - m.b, class: 'axis' }));
  axes.append(s('line', { x1: m.l, x2: m.l, y1: m.t, y2: hh - m.b, class: 'axis' }));
  // Axis labels never run past the picture: a label longer than its axis is shortened (full text as a tooltip).
  const fit = (text, length) => {
    const max = Math.floor(length / 6.6);
    return text.length <= max ? [text] : [`${text.slice(0, max - 1)}…`, s('title', {}, text)];
  };
  if (opts.xLabel) axes.append(s('text', { x: (m.l + w - m.r) / 2, y: hh - 6, 'text-anchor': 'middle', class: 'label' }, ...fit(opts.xLabel, (w - 8) / grow)));
  if (opts.yLabel) {
    const lx = 12 * grow;
    axes.append(s('text', { x: lx, y: (m.t + hh - m.b) / 2, 'text-anchor': 'middle', class: 'label',
      transform: `rotate(-90 ${lx} ${(m.t + hh - m.b) / 2})` }, ...fit(opts.yLabel, (hh - m.b - m.t + 24) / grow)));
  }
  root.append(axes);
  const plot = s('g', { class: 'plot' });
  root.append(plot);
  return { root, x, y, plot, m, w, h: hh };
}

/** A polyline path "M x y L ..." from points. */
export function linePath(points) {
  return points.map(([px, py], i) => `${i ? 'L' : 'M'}${px.toFixed(2)} ${py.toFixed(2)}`).join('');
}

// Class colours: Okabe–Ito's eight (safe for colour-blind readers) first, then 18 of Green-Armytage's
// "colour alphabet" ([GA10] in the page's references) picked greedily so that every pair of the 26
// differs by at least 21 in CIE L*a*b* (ΔE76): 26 classes stay apart. Every class also has a letter
// (classKey), drawn on marbles and swatches, so colour is never the only cue.
const PALETTE = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#8C6D1F', '#000000',
  '#740AFF', '#9DCC00', '#4C005C', '#FFCC99', '#808080', '#C20088', '#5EF1F2', '#FF0010', '#2BCE48', '#FFE100',
  '#426600', '#990000', '#003380', '#F0A3FF', '#005C31', '#0075DC', '#FFA8BB', '#993F00'];
export function classColor(k) {
  if (k < PALETTE.length) return PALETTE[k];
  return `hsl(${Math.round((k * 137.508) % 360)} 55% 45%)`;
}

/** The letter of class k: A … Z, then 27, 28, … */
export function classKey(k) { return k < 26 ? String.fromCharCode(65 + k) : String(k + 1); }

/** Black or white, whichever reads better on classColor(k). */
export function classInk(k) {
  const c = classColor(k);
  if (!c.startsWith('#')) return '#fff';
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(c.slice(i, i + 2), 16) / 255);
  return 0.299 * r + 0.587 * g + 0.114 * b > 0.55 ? '#000' : '#fff';
}

/** A round swatch of class k with its letter (HTML; colours applied by paintSwatches). */
export function classSwatch(k) {
  const el = h('span', { class: 'swatch key', 'data-color': classColor(k), 'aria-hidden': 'true', text: classKey(k) });
  el.dataset.ink = classInk(k);
  return el;
}

/** A viridis-like ramp, t in [0, 1] → colour. */
const VIRIDIS = [[68, 1, 84], [59, 82, 139], [33, 145, 140], [94, 201, 98], [253, 231, 37]];
export function viridis(t) {
  const u = Math.min(1, Math.max(0, t)) * (VIRIDIS.length - 1);
  const i = Math.min(VIRIDIS.length - 2, Math.floor(u));
  const f = u - i;
  const c = VIRIDIS[i].map((a, j) => Math.round(a + f * (VIRIDIS[i + 1][j] - a)));
  return `rgb(${c[0]} ${c[1]} ${c[2]})`;
}

/** A small legend (HTML) of coloured swatches. */
export function legend(items) {
  return h('ul', { class: 'legend' }, ...items.map(({ color, label, kind }) =>
    h('li', {}, h('span', { class: `swatch ${kind ?? ''}`, 'data-color': color }), label)));
}

/** Applies data-color attributes of swatches through CSSOM (allowed by the CSP, unlike style="" text). */
export function paintSwatches(root) {
  for (const el of root.querySelectorAll('[data-color]')) {
    el.style.background = el.dataset.color;
    if (el.dataset.ink) el.style.color = el.dataset.ink;
  }
}

export function fmt(x, digits = 3) {
  if (!Number.isFinite(x)) return '—';
  return x.toFixed(digits);
}

export function pct(x, digits = 1) {
  if (!Number.isFinite(x)) return '—';
  return `${(100 * x).toFixed(digits)}\u00a0%`; // a no-break space: the % never starts a line on its own
}

/** Replaces `container` with a note and a button that runs `run` (for pictures that take seconds to compute). */
export function slowGate(container, text, label, run) {
  const button = h('button', { type: 'button', class: 'secondary', text: label });
  button.addEventListener('click', () => {
    button.disabled = true;
    button.textContent = 'computing…';
    setTimeout(run, 30); // let the label paint before the work blocks the page
  });
  container.replaceChildren(h('div', { class: 'gate' }, h('p', { class: 'small muted', text }), button));
}

/** Replaces each container's picture with a placeholder while the worker computes the new one. */
export function pending(...containers) {
  for (const el of containers) el.replaceChildren(h('p', { class: 'muted small pending', text: 'Computing in the background…' }));
}
