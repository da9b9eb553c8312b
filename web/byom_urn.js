// View 7's urn: one row of an imported voting forest drawn marble by marble (forest.trace), with the
// pictures of view 2 (urn/marbles.js, urn/tally.js, urn/pstar.js). Runs on the page's thread: imported
// models live here, not in the worker.
import { fmt, h } from './charts.js';
import * as marbles from './urn/marbles.js';
import * as pstar from './urn/pstar.js';
import * as tally from './urn/tally.js';

const $ = (id) => document.getElementById(id);

/**
 * The urn panel. `get()` returns what to draw: {forest, ds, display: class names shown, own: the model's
 * own prediction per row (Int32Array), opts: trace options, ruleText} or null when nothing can be drawn.
 * Returns {refresh()} to call when any of those changed.
 */
export function createByomUrn(get) {
  const root = $('byom-urn');
  const view = { trace: null, drawn: 0, timer: null, row: 0, ctx: null };

  function stop() {
    if (view.timer) clearInterval(view.timer);
    view.timer = null;
    $('byom-play').textContent = 'Play';
    $('byom-play').setAttribute('aria-pressed', 'false');
  }

  function render() {
    const { trace, drawn, ctx } = view;
    if (!trace) return;
    const T = trace.votes.length;
    const halted = drawn >= trace.treesUsed;
    root.dataset.state = halted ? 'halted' : 'drawing';
    root.dataset.drawn = String(drawn);
    marbles.render($('byom-urn-svg'), { votes: trace.votes, row: view.row, drawn, peek: false });
    const counts = new Array(ctx.display.length).fill(0);
    for (let k = 0; k < drawn; k++) counts[trace.votes[k]]++;
    tally.render($('byom-urn-tally'), { names: ctx.display, tally: counts, fullVotes: trace.fullVotes, drawn, halted });
    pstar.render($('byom-urn-pstar'), {
      confidence: trace.confidence, T, treesUsed: trace.treesUsed, drawn, alpha: ctx.opts.alpha ?? 1,
      stopped: halted && trace.haltedEarly,
    });
    $('byom-urn-caption').textContent = `Row ${view.row + 1}: ${T} marbles, one per tree; ${ctx.ruleText}.`;
    const own = ctx.own[view.row];
    const majority = trace.fullClassIndex;
    const verdict = $('byom-urn-verdict');
    if (drawn === 0) {
      verdict.replaceChildren(h('p', {}, `${T} marbles, colours unknown until drawn. Press Play or Step.`));
    } else if (!halted) {
      const leader = trace.leaders[drawn - 1];
      verdict.replaceChildren(
        h('p', { class: 'big', text: `Drawn ${drawn} of ${T}.` }),
        h('p', { text: leader >= 0
          ? `Leader: ${ctx.display[leader]}. Confidence ${fmt(trace.confidence[drawn - 1], 3)}: not yet enough, keep drawing.`
          : 'A tie: no leader yet, keep drawing.' }),
      );
    } else {
      const agrees = trace.classIndex === own;
      verdict.replaceChildren(
        h('p', { class: 'big', text: trace.haltedEarly
          ? `Stopped after ${drawn} of ${T} trees: ${ctx.display[trace.classIndex]}.`
          : `All ${T} trees drawn: ${ctx.display[trace.classIndex]}.` }),
        h('p', { text: `All ${T} trees' votes: majority ${ctx.display[majority]}. The model's own answer (soft vote): ${ctx.display[own]}.` }),
        h('p', { class: agrees ? 'ok' : 'bad' }, h('strong', { text: agrees
          ? 'The early answer is the model\'s ✓'
          : 'The early answer differs from the model\'s ✗ (the rare case α allows, or a row where hard and soft votes differ)' })),
      );
    }
  }

  function step() {
    if (!view.trace) return;
    if (view.drawn < view.trace.treesUsed) view.drawn++;
    if (view.drawn >= view.trace.treesUsed) stop();
    render();
  }

  function refresh() {
    stop();
    const ctx = get();
    view.ctx = ctx;
    view.trace = null;
    view.drawn = 0;
    $('byom-urn-block').hidden = !ctx;
    if (!ctx) { root.dataset.state = 'empty'; return; }
    const n = ctx.ds.numRows;
    $('byom-row').max = String(n);
    view.row = Math.min(n - 1, Math.max(0, (Number($('byom-row').value) || 1) - 1));
    $('byom-row').value = String(view.row + 1);
    try {
      view.trace = ctx.forest.trace(ctx.ds, view.row, ctx.opts);
    } catch (e) {
      root.dataset.state = 'error';
      $('byom-urn-verdict').replaceChildren(h('p', { text: `This row cannot be drawn: ${String(e?.message ?? e).replace(/^\w+: /, '')}` }));
      return;
    }
    render();
  }

  $('byom-row').addEventListener('change', refresh);
  $('byom-step').addEventListener('click', step);
  $('byom-reset').addEventListener('click', () => { stop(); view.drawn = 0; render(); });
  $('byom-finish').addEventListener('click', () => { stop(); if (view.trace) { view.drawn = view.trace.treesUsed; render(); } });
  $('byom-play').addEventListener('click', () => {
    if (view.timer) { stop(); return; }
    if (!view.trace) return;
    if (view.drawn >= view.trace.treesUsed) view.drawn = 0;
    $('byom-play').textContent = 'Pause';
    $('byom-play').setAttribute('aria-pressed', 'true');
    view.timer = setInterval(step, 180);
  });

  return { refresh };
}
