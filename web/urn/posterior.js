// The posterior picture: after t draws, where the full vote of all T trees will end ([SSM16] §2), as the
// library computes it (forest.posterior). Two classes: P(T₁ | drawn) over the final votes for the first
// class; more: P(class is the strict winner of the full vote | drawn), the posterior's `win`.
import { classColor, classKey, fmt, frame, h, s } from '../charts.js';
import { MAX_POSTERIOR_TALLIES, numTallies } from '../math.js';

/**
 * P(T₁ = v | drawn) for v = 0..T: the library lists the reachable final tallies of two classes in
 * lexicographic order, (t₁, T − t₁), (t₁ + 1, T − t₁ − 1), …, so the probabilities are the bars from v = t₁ on.
 */
function firstClassVotes(post) {
  const l2 = new Float64Array(post.numTrees + 1);
  l2.set(post.probability, post.tallies[0]);
  return l2;
}

function twoClasses(post, names, T) {
  const l2 = firstClassVotes(post);
  const yMax = Math.max(1e-9, ...l2);
  const f = frame({ w: 420, h: 220, x: [0, T + 1], y: [0, yMax * 1.05], xLabel: `final votes for ${names[0]} (T₁)`, yLabel: 'P(T₁ | drawn)',
    title: 'Posterior over the final tally', yFormat: (v) => v.toFixed(2), margin: { l: 50 } });
  const bw = Math.max(0.5, f.x(1) - f.x(0) - 0.5);
  for (let v = 0; v <= T; v++) {
    if (l2[v] <= 0) continue;
    const winner = 2 * v > T ? 0 : 2 * v < T ? 1 : -1;
    f.plot.append(s('rect', { x: f.x(v), y: f.y(l2[v]), width: bw, height: f.y(0) - f.y(l2[v]),
      fill: winner < 0 ? '#999' : classColor(winner) }));
  }
  f.plot.append(s('line', { x1: f.x(T / 2 + 0.5), x2: f.x(T / 2 + 0.5), y1: f.y(0), y2: f.y(yMax * 1.05), class: 'midline' }));
  f.plot.append(s('text', { x: f.x(T / 2 + 0.5) + 4, y: f.y(yMax) + 4, class: 'small' }, `${names[1]} wins ← | → ${names[0]} wins`));
  return f.root;
}

function winners(post, names) {
  const l = names.length;
  const f = frame({ w: 420, h: 220, x: [0, l], y: [0, 1], yLabel: 'P(wins the full vote | drawn)', title: 'Posterior probability of each final winner',
    xTicks: [], yTicks: [0, 0.2, 0.4, 0.6, 0.8, 1], yFormat: (v) => v.toFixed(1) });
  for (let i = 0; i < l; i++) {
    f.plot.append(s('rect', { x: f.x(i) + 6, y: f.y(post.win[i]), width: f.x(1) - f.x(0) - 12, height: f.y(0) - f.y(post.win[i]), fill: classColor(i) }));
    // Names when they fit under the bars; the classes' letters (as on the marbles and in the tally) when not.
    const label = l <= 5 ? names[i].slice(0, Math.floor(64 / l)) : classKey(i);
    f.plot.append(s('text', { x: f.x(i + 0.5), y: f.y(0) + 16, 'text-anchor': 'middle', class: 'small' }, label, s('title', {}, names[i])));
  }
  return f.root;
}

/**
 * Draws the posterior into `container` (its data-drawn says after how many draws). data: {post: the
 * library's TallyPosterior (forest.posterior) or null (no final-tally prior, or too many tallies to list),
 * names: class names, T: trees, drawn, libConf: the library's P* after `drawn` draws, ownConfidence: the rule
 * defines its own confidence}. "P* from these bars" is the posterior's win of the drawn tally's strict leader
 * (0 on a tie).
 */
/** A count a student reads: 4,598,126 or "about 9.2 × 10²⁰". */
function bigNumber(n) {
  if (n < 1e9) return Math.round(n).toLocaleString('en-GB');
  const e = Math.floor(Math.log10(n));
  const sup = String(e).replace(/\d/g, (d) => '⁰¹²³⁴⁵⁶⁷⁸⁹'[d]);
  return `about ${(n / 10 ** e).toFixed(1)} × 10${sup}`;
}

export function render(container, { post, names, T, drawn, libConf, ownConfidence }) {
  const l = names.length;
  if (!post) {
    container.replaceChildren(h('p', { class: 'muted small', text: numTallies(l, T) > MAX_POSTERIOR_TALLIES
      ? `With ${l} classes and ${T} trees there are ${bigNumber(numTallies(l, T))} possible final tallies, too many to list here; the rule's P* (next picture) still applies.`
      : 'No final-tally prior for this rule.' }));
    container.dataset.drawn = String(drawn);
    return;
  }
  container.replaceChildren(l === 2 ? twoClasses(post, names, T) : winners(post, names));
  container.append(h('p', { class: 'small', text: drawn === 0 ? 'Before any draw this is the prior.'
    : `P* from these bars: ${fmt(post.leader >= 0 ? post.win[post.leader] : 0, 4)}; the library's P*: ${fmt(libConf, 4)}` +
      (ownConfidence ? ' (this rule defines its own confidence).' : '.') }));
  container.dataset.drawn = String(drawn);
}
