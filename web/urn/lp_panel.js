// View 2's fourth picture for a two-class forest: rule lp's stopping region ([KM26], forest.stoppingRegion
// on the page's copy of the model, solved once per model and α and cached by the library) beside the urn
// rule's staircase, with the row's path. More than two classes, or more trees than the page solves on its
// own thread, hide it with a sentence saying why.
import { h } from '../charts.js';
import { sentence } from '../explain.js';
import * as lpRegion from './lp_region.js';

const $ = (id) => document.getElementById(id);
/** The most trees for which the page solves the LP on its own thread (the work grows as T³). */
export const MAX_LP_TREES = 301;

const cache = { forest: null, alpha: NaN, region: null, error: null };

function regionFor(forest, alpha) {
  if (cache.forest !== forest || cache.alpha !== alpha) {
    cache.forest = forest;
    cache.alpha = alpha;
    cache.region = null;
    cache.error = null;
    try { cache.region = forest.stoppingRegion({ rule: 'lp', alpha }); } catch (e) { cache.error = e; }
  }
  return cache;
}

/**
 * Shows (or hides) the LP region for `forest` at `alpha`, with the row's `votes` (query order) after
 * `drawn` draws; `halted`: the draw stopped. `forest` null clears it.
 */
export function showLpRegion(forest, { alpha, votes = [], drawn = 0, halted = false }) {
  const fig = $('urn-lp-figure');
  const box = $('urn-lp');
  if (!forest || forest.numClasses !== 2) { fig.hidden = true; box.replaceChildren(); return; }
  fig.hidden = false;
  if (forest.numTrees > MAX_LP_TREES) {
    box.dataset.state = 'too-large';
    box.replaceChildren(h('p', { class: 'muted small', text: `This forest has ${forest.numTrees} trees: the page solves rule lp's ` +
      `linear program only up to ${MAX_LP_TREES} trees, where it takes well under a second.` }));
    return;
  }
  const { region, error } = regionFor(forest, alpha);
  if (!region) {
    box.dataset.state = 'error';
    box.replaceChildren(h('p', { class: 'muted small', text: `Rule lp's stopping region cannot be drawn: ${sentence(error)}` }));
    return;
  }
  box.dataset.state = 'ready';
  box.dataset.expectedTrees = String(region.expectedTrees);
  lpRegion.render(box, { region, names: forest.classNames, votes, drawn, halted });
}
