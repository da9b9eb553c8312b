// The P* picture: the library's agreement probability after each draw (trace.confidence) against α.
import { frame, linePath, s } from '../charts.js';

/**
 * Draws P* into `container`. data: {confidence: P* after draw k + 1 (the trace's), T: trees, treesUsed:
 * the trace's halt, drawn, alpha, stopped: halted early and shown as halted (the last dot marks the stop)}.
 */
export function render(container, { confidence, T, treesUsed, drawn, alpha, stopped }) {
  const xMax = Math.min(T, Math.max(12, Math.ceil(treesUsed * 1.3) + 2));
  const f = frame({ w: 420, h: 220, x: [0, xMax], y: [0, 1], xLabel: 'marbles drawn (t)', yLabel: 'P*', title: 'Agreement probability after each draw',
    yTicks: [0, 0.2, 0.4, 0.6, 0.8, 1], yFormat: (v) => v.toFixed(1) });
  f.plot.append(s('line', { x1: f.x(0), x2: f.x(xMax), y1: f.y(alpha), y2: f.y(alpha), class: 'alpha' }));
  f.plot.append(s('text', { x: f.x(xMax) - 4, y: f.y(alpha) - 5, 'text-anchor': 'end', class: 'small alpha-label' }, `α = ${alpha}`));
  const n = Math.min(drawn, confidence.length);
  const pts = [];
  for (let k = 0; k < n && k < xMax; k++) pts.push([f.x(k + 1), f.y(Math.max(0, Math.min(1, confidence[k])))]);
  if (pts.length) {
    f.plot.append(s('path', { d: linePath(pts), class: 'series' }));
    for (const [px, py] of pts.length < 80 ? pts : []) f.plot.append(s('circle', { cx: px, cy: py, r: 2.5, class: 'dot' }));
    const [lx, ly] = pts[pts.length - 1];
    f.plot.append(s('circle', { cx: lx, cy: ly, r: 5, class: stopped ? 'stop-dot' : 'dot' }));
  }
  container.replaceChildren(f.root);
}
