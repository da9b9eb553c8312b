// View 7, bring your own model: an ONNX tree ensemble trained elsewhere (Forest.fromONNX) classifies a CSV
// inside the page, then shows how many of its trees the answers needed: the exact early exit (rule alpha1)
// and, for voting forests, rule auto with its certificate and, calibrated on the CSV's rows, the hyper,
// margin and lp rules (byom_stat.js). The files are read with
// FileReader / File.arrayBuffer; the only fetches are the bundled examples (web/examples/, same origin).
// Imported models run on the page's thread (the worker holds only the trained model).
import { fmt, h, pct } from './charts.js';
import { previewCSV } from './math.js';
import { readLabels } from './byom_labels.js';
import { checkDelta, showVerdict } from './validate.js';
import { clearFriendlyError, kindText, ruleText, showFriendlyError } from './byom_messages.js';
import { createByomStat } from './byom_stat.js';
import { createByomUrn } from './byom_urn.js';

const $ = (id) => document.getElementById(id);
const SHOWN_ROWS = 15;

// What each example is, in words a reader can check (the files' own "made by" field names the project's
// script that wrote them, which a reader of the page cannot follow).
const EXAMPLES = {
  rf: { model: 'examples/sklearn_rf_wdbc.onnx', csv: 'examples/wdbc_heldout.csv', label: 'class',
    about: 'A small scikit-learn RandomForestClassifier (15 trees, depth at most 6) trained on 419 rows of wdbc, ' +
      'written in the ONNX form skl2onnx produces (by urnforest, for its tests).' },
  xgb: { model: 'examples/xgboost_wdbc.onnx', csv: 'examples/wdbc_heldout.csv', label: 'class',
    about: 'An XGBoost binary classifier (20 boosted trees) trained on the same 419 rows of wdbc, written in the ' +
      'ONNX form onnxmltools produces (by urnforest, for its tests).' },
};

export function createByomView(app) {
  const section = $('byom-view');
  const errorBox = $('byom-error');
  const st = {
    about: null, // what the example model opened is (EXAMPLES), null for a file
    bytes: null, modelName: '', base: null, // the model as opened (default names f0, f1, ...): its facts
    forest: null, namesKey: null, // the model imported with the chosen names: predicts, holds the calibration
    text: null, csvName: '', header: [],
    ds: null, full: null, proba: null, exact: null, stat: null, labels: null, display: [],
  };

  function summary(text) { $('byom-summary').textContent = text; }
  function setState(state) { section.dataset.state = state; }

  function disposeForest() {
    st.forest?.dispose();
    st.forest = null;
    st.namesKey = null;
    delete section.dataset.calibrated;
  }
  function disposeData() {
    st.ds?.dispose();
    st.ds = null;
    st.full = st.proba = st.exact = st.stat = st.labels = null;
  }

  /** The CSV's columns that may be model inputs: all but the chosen label column. */
  function featureColumns() {
    const label = $('byom-label').value;
    return st.header.filter((c) => c !== label);
  }

  /** The names to import the model with: typed ones, the CSV's columns in order, or null (f0, f1, ...). */
  function chosenNames() {
    const typed = $('byom-names').value.split(',').map((t) => t.trim()).filter((t) => t !== '');
    if (typed.length) return typed;
    if ($('byom-inorder').checked && !$('byom-inorder').disabled) return featureColumns();
    return null;
  }

  function fillLabelChoices(preferred) {
    const select = $('byom-label');
    const keep = preferred ?? select.value;
    select.replaceChildren(new Option('(none)', ''), ...st.header.map((c) => new Option(c, c)));
    const guess = st.header.includes(keep) ? keep : st.header.includes('class') ? 'class' : '';
    select.value = guess;
  }

  function showModelInfo() {
    const f = st.base;
    $('byom-model-info').hidden = !f;
    if (!f) return;
    const info = f.imported;
    $('byom-source').textContent = st.about ?? (info.source || 'not stated in the file');
    $('byom-kind').textContent = info.kind === 'voting' ? 'voting forest' : 'additive (boosted)';
    $('byom-trees').textContent = String(f.numTrees);
    const classes = st.display.length === f.numClasses ? st.display : f.classNames;
    $('byom-classes').textContent = `${f.numClasses}: ${classes.slice(0, 6).join(', ')}${f.numClasses > 6 ? ', …' : ''}`;
    $('byom-features').textContent = String(f.numFeatures);
    $('byom-kind-help').textContent = kindText(info.kind);
    const names = (st.forest ?? f).featureNames;
    $('byom-feature-list').textContent = names.join(', ');
  }

  function metric(dl, items) {
    dl.replaceChildren(...items.map(([label, value, key]) =>
      h('div', key ? { 'data-key': key } : {}, h('dt', { text: label }), h('dd', { text: value }))));
  }

  function accuracy(classIndex) {
    if (!st.labels) return null;
    let known = 0;
    let right = 0;
    for (let i = 0; i < st.labels.length; i++) {
      if (st.labels[i] < 0) continue;
      known++;
      if (st.labels[i] === classIndex[i]) right++;
    }
    return known ? { value: right / known, known } : null;
  }

  function renderPredictions() {
    const { full, proba, labels, display } = st;
    const n = full.classIndex.length;
    const k = display.length;
    const acc = accuracy(full.classIndex);
    const counts = new Array(k).fill(0);
    for (const c of full.classIndex) counts[c]++;
    metric($('byom-pred-metrics'), [
      ['Rows classified', String(n), 'rows'],
      ['Predicted', counts.map((c, i) => `${display[i]} ${c}`).filter((_, i) => counts[i] > 0).join(' · '), 'counts'],
      ...(acc ? [['Accuracy (true labels)', `${pct(acc.value)} of ${acc.known}`, 'accuracy']] : []),
    ]);
    const table = h('table', { class: 'data' });
    const head = table.createTHead().insertRow();
    const cols = ['row', 'prediction', 'probability', ...(labels ? ['true label', ''] : [])];
    for (const c of cols) head.append(h('th', { scope: 'col', text: c }));
    const body = table.createTBody();
    for (let i = 0; i < Math.min(n, SHOWN_ROWS); i++) {
      const c = full.classIndex[i];
      const tr = body.insertRow();
      tr.append(h('td', { text: String(i + 1) }), h('td', { text: display[c] }),
        h('td', { class: 'num', text: fmt(proba.probabilities[i * k + c], 3) }));
      if (labels) {
        const t = labels[i];
        tr.append(h('td', { text: t < 0 ? '?' : display[t] }),
          h('td', { text: t < 0 ? '' : t === c ? '✓' : '✗', class: t < 0 ? '' : t === c ? 'ok' : 'bad' }));
      }
    }
    $('byom-table').replaceChildren(table, ...(n > SHOWN_ROWS ? [h('p', { class: 'small muted', text: `First ${SHOWN_ROWS} of ${n} rows.` })] : []));
    $('byom-table').dataset.rows = String(n);
  }

  function renderExact() {
    const { exact } = st;
    const T = exact.trees;
    section.dataset.exactMeanTrees = String(exact.meanTrees);
    metric($('byom-exact'), [
      ['Trees asked per row (mean)', `${fmt(exact.meanTrees, 1)} of ${T}`, 'mean-trees'],
      ['Trees saved', pct(1 - exact.meanTrees / T, 0), 'saved'],
      ['Same answer as the full model', pct(1 - exact.disagreement, 0), 'same'],
    ]);
  }

  const renderStat = createByomStat({ st, section, errorBox, metric, accuracy });

  /** What the urn draws: voting forests only; the exact rule until calibrated, then hyper at α. */
  function urnContext() {
    if (!st.ds || !st.forest || st.forest.imported.kind !== 'voting' || !st.full) return null;
    const calibrated = st.forest.imported.calibrated;
    const rule = $('byom-rule').value;
    const alpha = Number($('byom-alpha').value);
    const useHyper = calibrated && rule === 'hyper';
    return {
      forest: st.forest, ds: st.ds, display: st.display, own: st.full.classIndex,
      opts: useHyper ? { rule: 'hyper', alpha } : { rule: 'alpha1' },
      ruleText: useHyper ? `stops when hyper is sure at α = ${alpha}`
        : calibrated ? 'the margin rule adds probabilities, not marbles, so the urn shows the exact rule'
          : 'the exact rule: stop when the marbles left cannot change the majority',
    };
  }
  const urn = createByomUrn(urnContext);

  /** Runs everything that follows from the model, the CSV and the column choices. */
  function update() {
    clearFriendlyError(errorBox);
    $('byom-results').hidden = true;
    if (!st.base) { setState(st.bytes ? 'error' : 'empty'); urn.refresh(); return; }
    // Columns: offer "in this order" when the CSV's other columns are as many as the model's inputs.
    const cols = featureColumns();
    const fits = st.text !== null && cols.length === st.base.numFeatures;
    $('byom-inorder').disabled = !fits;
    $('byom-inorder-help').textContent = st.text === null ? ''
      : fits ? `The CSV has ${cols.length} columns besides the label: as many as the model's inputs.`
        : `The CSV has ${cols.length} columns besides the label, the model ${st.base.numFeatures} inputs: name them instead.`;
    const names = chosenNames();
    const key = names === null ? '' : JSON.stringify(names);
    if (key !== st.namesKey) {
      disposeData();
      disposeForest();
      try {
        st.forest = app.uf.Forest.fromONNX(st.bytes, names === null ? {} : { featureNames: names });
        st.namesKey = key;
      } catch (e) {
        st.display = st.base.classNames;
        showModelInfo();
        setState('error');
        showFriendlyError(errorBox, e, 'Column names');
        urn.refresh();
        return;
      }
    }
    st.display = st.forest.classNames;
    if (st.text === null) {
      showModelInfo();
      setState('model');
      summary(`Model ${st.modelName} is ready. Now open a CSV with the rows to classify.`);
      urn.refresh();
      return;
    }
    disposeData();
    try {
      st.ds = app.uf.Dataset.fromCSV(st.text, { target: null, schemaOf: st.forest });
      st.full = st.forest.predict(st.ds);
      st.proba = st.forest.predictProba(st.ds);
      st.exact = st.forest.predict(st.ds, { rule: 'alpha1', compare: true });
    } catch (e) {
      disposeData();
      showModelInfo();
      setState('error');
      summary(`${st.csvName} cannot be classified by ${st.modelName}.`);
      showFriendlyError(errorBox, e, st.csvName);
      urn.refresh();
      return;
    }
    const labelColumn = $('byom-label').value;
    $('byom-label-note').textContent = '';
    if (labelColumn) {
      try {
        const read = readLabels(app.uf, st.text, labelColumn, st.forest.classNames);
        st.labels = read.labels;
        if (read.labels) st.display = read.display;
        $('byom-label-note').textContent = read.note;
      } catch (e) {
        st.labels = null;
        $('byom-label-note').textContent = `Column "${labelColumn}" cannot be read as labels: ${String(e?.message ?? e).replace(/^\w+: /, '')}`;
      }
    }
    showModelInfo();
    const voting = st.forest.imported.kind === 'voting';
    $('byom-results').hidden = false;
    $('byom-voting').hidden = !voting;
    $('byom-additive-note').hidden = voting;
    renderPredictions();
    renderExact();
    if (voting) renderStat();
    section.dataset.rows = String(st.ds.numRows);
    setState('ready');
    summary(`${st.ds.numRows} rows of ${st.csvName} classified by ${st.modelName}, in this page.`);
    urn.refresh();
  }

  function useModel(bytes, name) {
    st.bytes = bytes;
    st.modelName = name;
    disposeData();
    disposeForest();
    st.base?.dispose();
    st.base = null;
    try {
      st.base = app.uf.Forest.fromONNX(bytes);
    } catch (e) {
      $('byom-model-info').hidden = true;
      $('byom-results').hidden = true;
      setState('error');
      summary(`${name} cannot be used.`);
      urn.refresh();
      showFriendlyError(errorBox, e, name);
      return;
    }
    update();
  }

  function useCSV(text, name, label) {
    st.text = text;
    st.csvName = name;
    st.header = (previewCSV(text, 0)[0] ?? []).map((c) => c.trim()).filter((c) => c !== '');
    fillLabelChoices(label);
    disposeData();
    disposeForest(); // a calibration belongs to the rows it was made on: a new CSV starts afresh
    if (st.base) update();
    else summary(`${name} is ready. Now open the model (.onnx).`);
  }

  function openFile(file) {
    if (/\.(csv|txt|tsv)$/i.test(file.name) || file.type === 'text/csv') {
      file.text().then((text) => useCSV(text, file.name), (e) => showFriendlyError(errorBox, e, file.name));
    } else {
      st.about = null;
      file.arrayBuffer().then((buf) => useModel(new Uint8Array(buf), file.name), (e) => showFriendlyError(errorBox, e, file.name));
    }
  }

  async function loadExample(which) {
    const ex = EXAMPLES[which];
    summary('Loading the example…');
    try {
      const [model, csv] = await Promise.all([fetch(ex.model), fetch(ex.csv)]);
      if (!model.ok || !csv.ok) throw new Error(`the example files are missing (HTTP ${model.status}, ${csv.status})`);
      const bytes = new Uint8Array(await model.arrayBuffer());
      const text = await csv.text();
      $('byom-model').value = '';
      $('byom-csv').value = '';
      $('byom-names').value = '';
      $('byom-inorder').checked = true;
      st.base?.dispose();
      st.base = null;
      disposeData();
      disposeForest();
      useCSV(text, ex.csv.split('/').pop(), ex.label);
      st.about = ex.about;
      useModel(bytes, ex.model.split('/').pop());
    } catch (e) {
      setState('error');
      showFriendlyError(errorBox, e, 'Example');
    }
  }

  $('byom-example-rf').addEventListener('click', () => loadExample('rf'));
  $('byom-example-xgb').addEventListener('click', () => loadExample('xgb'));
  $('byom-model').addEventListener('change', (e) => { if (e.target.files[0]) openFile(e.target.files[0]); });
  $('byom-csv').addEventListener('change', (e) => {
    const file = e.target.files[0];
    if (file) file.text().then((text) => useCSV(text, file.name), (err) => showFriendlyError(errorBox, err, file.name));
  });
  for (const id of ['byom-inorder', 'byom-label']) $(id).addEventListener('change', () => { if (st.base) update(); });
  $('byom-names').addEventListener('change', () => { if (st.base) update(); });
  $('byom-calibrate').addEventListener('click', () => {
    if (!st.forest || !st.ds) return;
    clearFriendlyError(errorBox);
    try {
      st.forest.calibrate(st.ds);
    } catch (e) {
      showFriendlyError(errorBox, e, 'Calibration');
      return;
    }
    section.dataset.calibrated = 'yes';
    renderStat();
    urn.refresh();
  });
  $('byom-delta').addEventListener('input', () => showVerdict('byom-delta', checkDelta($('byom-delta').value)));
  for (const id of ['byom-rule', 'byom-alpha', 'byom-delta']) {
    $(id).addEventListener('change', () => {
      if (!st.forest || !st.ds || st.forest.imported.kind !== 'voting') return;
      clearFriendlyError(errorBox);
      renderStat();
      urn.refresh();
    });
  }
  // Dropping files anywhere on the view: .csv/.txt as the rows, anything else as the model.
  section.addEventListener('dragover', (e) => { e.preventDefault(); $('byom-drop').classList.add('over'); });
  section.addEventListener('dragleave', (e) => { if (e.target === section) $('byom-drop').classList.remove('over'); });
  section.addEventListener('drop', (e) => {
    e.preventDefault();
    $('byom-drop').classList.remove('over');
    for (const file of e.dataTransfer?.files ?? []) openFile(file);
  });
}
