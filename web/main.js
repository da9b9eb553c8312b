// urnforest demo, entry point: wires the panels and views to the shared state (app.js) and loads the first
// data set. Uses only the public API of the built package (/dist/index.js, /dist/worker.js); every byte comes
// from the serving origin and a user's file stays in this page.
import { init } from '/dist/index.js';
import { app, showError, clearError } from './app.js';
import { linkCitations } from './cite.js';
import { sentence } from './explain.js';
import { loadChoice, readLocalFile, describeData } from './data_panel.js';
import { cancelTraining, ensembleChanged, train, useLoadedModel } from './train_panel.js';
import { createRuleBar } from './rule_bar.js';
import { createUrnView } from './urn/view.js';
import { createTestView } from './testset.js';
import { createPriorView } from './prior.js';
import { createConceptsView } from './concepts.js';
import { createPruningView } from './pruning.js';
import { createEmphasisView } from './emphasis.js';
import { createClassifyView } from './classify.js';
import { createByomView } from './byom.js';

const $ = (id) => document.getElementById(id);

async function main() {
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
  ensembleChanged();
  $('cancel').addEventListener('click', cancelTraining);
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

  try {
    await loadChoice($('dataset').value);
  } catch (e) {
    app.setStatus('error', `The data set could not be loaded: ${sentence(e)}`);
    showError($('data-error'), e, 'The data set could not be loaded');
  }
}

main();
