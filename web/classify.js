// View 6, classify privately: the trained (or loaded) model labels the user's rows inside the page; the
// predictions and the model bytes are downloaded as blob: URLs made here (no network request).
import { fmt, h } from './charts.js';

const $ = (id) => document.getElementById(id);

function csvCell(v) {
  const t = String(v);
  return /[",\n\r]/.test(t) ? `"${t.replace(/"/g, '""')}"` : t;
}

function download(name, blob) {
  const url = URL.createObjectURL(blob);
  const a = h('a', { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function createClassifyView(app, { useLoadedModel, showError, clearError }) {
  let result = null; // {name, header, rows: string[][]}

  function summary(text) { $('classify-summary').textContent = text; }

  function modelChanged() {
    const has = !!app.forest;
    $('download-model').disabled = !has;
    $('classify-test').disabled = !has || !app.testDs;
    if (has) summary(`Model ready: ${app.forest.numTrees} trees, classes ${app.forest.classNames.join(', ')}. Open a CSV with the same feature columns.`);
  }

  let generation = 0;

  /**
   * The rows of `csv` (null: the test rows) classified by the model in the worker, read against the model's
   * columns with or without a class column: the full vote, and the halting rule of the rule bar (when the
   * rule cannot run on this model, e.g. beyond its class limit, the full vote is still given).
   */
  async function classifyRows(remote, csv, opts) {
    let data = 'test';
    if (csv !== null) {
      data = { csv, schemaOfModel: true };
      try {
        await remote.addData('classify', data);
      } catch (e) {
        if (e.code !== 'TargetNotFound') throw e;
        data = { csv, schemaOfModel: true, options: { target: null } };
        await remote.addData('classify', data);
      }
      data = 'classify';
    }
    try {
      const full = await remote.predict(data);
      let halting = null;
      let haltingError = null;
      try {
        halting = await remote.predict(data, opts);
      } catch (e) {
        haltingError = { code: e.code ?? e.name, message: e.message };
      }
      return { full, halting, haltingError, numRows: full.classIndex.length };
    } finally {
      if (csv !== null) remote.dropData('classify').catch(() => {});
    }
  }

  /** Classifies the rows of `csv` (null: the test rows) in the worker and shows them, ready to download. */
  async function classify(csv, name) {
    const my = ++generation;
    clearError($('classify-error'));
    if (!app.forest) { summary('Train or load a model first.'); return; }
    const opts = app.haltingOptions();
    const numTrees = app.forest.numTrees;
    summary(`Classifying ${name} in the background…`);
    let msg;
    try {
      msg = await app.work('classifying', (remote) => classifyRows(remote, csv, opts), 'classify');
    } catch (e) {
      if (my !== generation) return;
      result = null;
      $('download-preds').disabled = true;
      $('classify-table').replaceChildren();
      delete $('classify-table').dataset.rows;
      summary(`${name} could not be classified.`);
      showError($('classify-error'), e, `${name} could not be classified`);
      return;
    }
    if (!msg || my !== generation) return;
    const { full, halting, haltingError, numRows } = msg;
    if (haltingError) showError($('classify-error'), haltingError, 'Halting rule: ');
    const header = ['row', 'predicted'];
    if (halting) header.push('trees_used', 'confidence', 'full_vote', 'agrees');
    else header.push(...full.classNames.map((c) => `votes_${c}`));
    const l = full.classNames.length;
    const rows = [];
    for (let i = 0; i < numRows; i++) {
      if (halting) {
        rows.push([String(i + 1), halting.labels[i], String(halting.treesUsed[i]), fmt(halting.confidence[i], 4),
          full.labels[i], halting.classIndex[i] === full.classIndex[i] ? 'yes' : 'no']);
      } else {
        rows.push([String(i + 1), full.labels[i], ...Array.from(full.votes.subarray(i * l, (i + 1) * l), String)]);
      }
    }
    result = { name: name.replace(/\.[^.]*$/, ''), header, rows };
    const table = h('table', { class: 'data' });
    const head = table.createTHead().insertRow();
    for (const c of header) head.append(h('th', { scope: 'col', text: c }));
    const body = table.createTBody();
    for (const r of rows.slice(0, 25)) {
      const tr = body.insertRow();
      for (const c of r) tr.append(h('td', { text: c }));
    }
    $('classify-table').replaceChildren(table);
    $('classify-table').dataset.rows = String(rows.length);
    $('download-preds').disabled = false;
    summary(`${rows.length} rows of ${name} classified${halting ? ` with ${opts.rule} at α = ${opts.alpha}: ${fmt(halting.meanTrees, 1)} trees per row on average instead of ${numTrees}` : ' by the full vote'}.` +
      (rows.length > 25 ? ' The table shows the first 25; the download has all.' : ''));
  }

  $('classify-file').addEventListener('change', (e) => {
    const file = e.target.files[0];
    if (!file) return;
    const reader = new FileReader();
    reader.onload = () => classify(String(reader.result), file.name);
    reader.readAsText(file);
  });
  $('classify-test').addEventListener('click', () => {
    if (app.forest && app.testDs) classify(null, 'test-rows');
  });
  $('model-file').addEventListener('change', (e) => {
    const file = e.target.files[0];
    if (!file) return;
    file.arrayBuffer().then((buf) => {
      clearError($('classify-error'));
      useLoadedModel(new Uint8Array(buf)).then(() => {
        summary(`Loaded ${file.name}: ${app.forest.numTrees} trees, classes ${app.forest.classNames.join(', ')}.`);
      }, (err) => showError($('classify-error'), err, `${file.name} is not a model this page can load`));
    });
  });
  $('download-preds').addEventListener('click', () => {
    if (!result) return;
    const text = [result.header, ...result.rows].map((r) => r.map(csvCell).join(',')).join('\n') + '\n';
    download(`${result.name}-predictions.csv`, new Blob([text], { type: 'text/csv' }));
  });
  $('download-model').addEventListener('click', () => {
    if (app.forest) download('urnforest-model.urnf', new Blob([app.forest.toBytes()], { type: 'application/octet-stream' }));
  });

  app.onModel(modelChanged);
}
