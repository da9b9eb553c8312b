// urnforest demo, entry point: wires the panels and views to the shared state (app.js) and loads the first
// data set. Uses only the public API of the built package (/dist/index.js, /dist/worker.js); every byte comes
// from the serving origin and a user's file stays in this page.
import { init } from '/dist/index.js';
import { app, showError, clearError } from './app.js';
import { linkCitations } from './cite.js';
import { sentence } from './explain.js';
import { loadChoice, readLocalFile, describeData } from './data_panel.js';
import { cancelTraining, ensembleChanged, formChanged, recalibrate, train, useLoadedModel } from './train_panel.js';
import { createRuleBar } from './rule_bar.js';
import { createUrnView } from './urn/view.js';
import { createTestView } from './testset.js';
import { createPriorView } from './prior.js';
import { createConceptsView } from './concepts.js';
import { createPruningView } from './pruning.js';
import { createEmphasisView } from './emphasis.js';
import { createClassifyView } from './classify.js';
import { createByomView } from './byom.js';
import { loadFragments } from './fragments.js';
import { keepChartsLegible } from './legible.js';
import { createNav } from './nav.js';
import { addRuleMirror } from './rule_mirror.js';
import { createSharedLink } from './shared_link.js';
import { createWorkBar } from './work.js';

const $ = (id) => document.getElementById(id);

async function main() {
  try {
    await loadFragments();
  } catch (e) {
    app.setStatus('error', `The page could not be put together: ${sentence(e)}`);
    return;
  }
  keepChartsLegible();
  createWorkBar();
  try {
    app.uf = await init(); // before the views: the emphasis sliders read the library's grid
  } catch (e) {
    app.setStatus('error', `The library could not start in this browser: ${sentence(e)}`);
    showError($('data-error'), e, 'The library could not start');
    return;
  }
  $('dataset').addEventListener('change', (e) => loadChoice(e.target.value).catch((err) => showError($('data-error'), err, 'The data set could not be loaded')));
  $('file').addEventListener('change', (e) => { if (e.target.files[0]) readLocalFile(e.target.files[0]); });
  $('target').addEventListener('change', describeData);
  $('train').addEventListener('click', train);
  for (const id of ['ensemble', 'vb-a', 'vb-cv', 'vb-base']) $(id).addEventListener('input', ensembleChanged);
  for (const id of ['trees', 'seed', 'mtry']) $(id).addEventListener('input', formChanged);
  ensembleChanged();
  $('cancel').addEventListener('click', cancelTraining);
  $('calibrate').addEventListener('change', recalibrate);
  addRuleMirror($('test-view'), 'testset', $('test-unavailable'));
  addRuleMirror($('classify-view'), 'classify', $('classify-view').querySelector('.grid'));
  createRuleBar();

  createConceptsView(app);
  createPruningView(app);
  createEmphasisView(app);
  createUrnView(app);
  createTestView(app);
  createPriorView(app);
  createClassifyView(app, { useLoadedModel, showError, clearError });
  createByomView(app);
  linkCitations(document.body);
  const shared = createSharedLink(app, { loadChoice, train, formChanged });
  createNav((id) => shared.onView(id));

  try {
    if (!await shared.restore()) await loadChoice($('dataset').value);
  } catch (e) {
    app.setStatus('error', `The data set could not be loaded: ${sentence(e)}`);
    showError($('data-error'), e, 'The data set could not be loaded');
  }
}

main();
