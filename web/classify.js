// View 6, classify privately: the trained (or loaded) model labels the user's rows inside the page; the
// predictions and the model bytes are downloaded as blob: URLs made here (no network request).
import { showCertified } from './certified_answer.js';
import { fmt, h, pct } from './charts.js';
import { showRuleProblem } from './rule_bar.js';
import { previewCSV } from './math.js';

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
    showRuleProblem($('classify-rule-note'), null);
    showCertified($('classify-certificate'), null);
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
    if (my !== generation) return;
    if (!msg) { summary(`Classifying ${name} was stopped (cancelled, or the model changed); ask again to classify it.`); return; }
    const { full, halting, haltingError, numRows } = msg;
    showRuleProblem($('classify-rule-note'), haltingError, opts.rule);
    showCertified($('classify-certificate'), opts, halting, 'rows');
    const truth = trueLabels(csv, numRows);
    const header = ['row', 'predicted'];
    const shown = ['row', 'predicted'];
    if (truth) { header.push('true_label', 'correct'); shown.push('true label', 'correct'); }
    if (halting) {
      header.push('trees_used', 'confidence', 'full_vote', 'agrees');
      shown.push('trees used', 'confidence', 'all trees say', 'same as all trees');
    } else {
      header.push(...full.classNames.map((c) => `votes_${c}`));
      shown.push(...full.classNames.map((c) => `votes for ${c}`));
    }
    const l = full.classNames.length;
    const rows = [];
    let correct = 0;
    let correctFull = 0;
    let labelled = 0;
    for (let i = 0; i < numRows; i++) {
      const predicted = halting ? halting.labels[i] : full.labels[i];
      const row = [String(i + 1), predicted];
      if (truth) {
        const known = truth[i] !== null;
        row.push(known ? truth[i] : '', known ? (predicted === truth[i] ? 'yes' : 'no') : '');
        if (known) {
          labelled++;
          if (predicted === truth[i]) correct++;
          if (full.labels[i] === truth[i]) correctFull++;
        }
      }
      if (halting) {
        row.push(String(halting.treesUsed[i]), fmt(halting.confidence[i], 4), full.labels[i],
          halting.classIndex[i] === full.classIndex[i] ? 'yes' : 'no');
      } else {
        row.push(...Array.from(full.votes.subarray(i * l, (i + 1) * l), String));
      }
      rows.push(row);
    }
    const inputs = inputColumns(csv === null ? app.text : csv, csv === null ? app.testRows : null, numRows);
    result = { name: name.replace(/\.[^.]*$/, ''), header, rows, inputs };
    const table = h('table', { class: 'data' });
    const head = table.createTHead().insertRow();
    for (const c of shown) head.append(h('th', { scope: 'col', text: c }));
    const body = table.createTBody();
    const correctCol = truth ? 3 : -1;
    for (const r of rows.slice(0, 25)) {
      const tr = body.insertRow();
      r.forEach((c, j) => tr.append(h('td', { text: c, class: j === correctCol && c ? (c === 'yes' ? 'ok' : 'bad') : null })));
    }
    $('classify-table').replaceChildren(table);
    $('classify-table').dataset.rows = String(rows.length);
    if (truth && labelled) $('classify-table').dataset.accuracy = String(correct / labelled);
    else delete $('classify-table').dataset.accuracy;
    $('download-preds').disabled = false;
    const fileName = csv === null ? 'the held-out test rows' : name;
    let text = `${rows.length} rows of ${fileName} classified` + (halting
      ? ` with the ${opts.rule} rule at α = ${opts.alpha}: ${fmt(halting.meanTrees, 1)} trees per row on average instead of ${numTrees}.`
      : ' by the vote of all trees.');
    if (truth && labelled) {
      text += ` The file has the true labels: accuracy ${pct(correct / labelled)} (${correct} of ${labelled} rows)` +
        (halting ? `, ${pct(correctFull / labelled)} with all ${numTrees} trees.` : '.');
      if (csv !== null) text += ' Rows the model was trained on are easy for it, so on a file that contains them this accuracy is optimistic.';
    } else {
      text += ' The file has no label column, so the accuracy cannot be measured.';
    }
    if (rows.length > 25) text += ' The table shows the first 25 rows; the download has all of them, with their input columns.';
    summary(text);
  }

  /**
   * The true class name of each row when the rows carry the model's label column (null when not, and null
   * for a row whose label is missing): the test rows' labels, or the CSV read on this page against the model.
   */
  /**
   * The input columns of the rows classified, as read from the CSV `text` (header and cells as strings):
   * every data line, or the lines `rowIndices` (the test rows, indices among the data lines). null when
   * the lines do not match the `numRows` rows the model classified (then the download has predictions only).
   */
  function inputColumns(text, rowIndices, numRows) {
    const lines = previewCSV(text, Infinity).filter((r) => r.length > 1 || r[0].trim() !== '');
    const [head, ...data] = lines;
    const rows = rowIndices === null ? data : Array.from(rowIndices, (i) => data[i]);
    if (!head || rows.length !== numRows || rows.some((r) => r === undefined)) return null;
    return { header: head, rows };
  }

  function trueLabels(csv, numRows) {
    if (csv === null) {
      const names = app.testDs.classNames;
      return Array.from(app.testLabels, (k) => (k >= 0 ? names[k] : null));
    }
    let data = null;
    try {
      data = app.uf.Dataset.fromCSV(csv, { schemaOf: app.forest });
      if (!data.hasLabels || data.numRows !== numRows) return null;
      const names = data.classNames;
      return Array.from(data.labels(), (k) => (k >= 0 ? names[k] : null));
    } catch {
      return null; // no label column (or unreadable here): predictions only
    } finally {
      data?.dispose();
    }
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
    // The file's own columns first (as read from it), then the predictions: one line per row.
    const { header, rows, inputs } = result;
    const lines = [inputs ? [header[0], ...inputs.header, ...header.slice(1)] : header,
      ...rows.map((r, i) => (inputs ? [r[0], ...inputs.rows[i], ...r.slice(1)] : r))];
    const text = lines.map((r) => r.map(csvCell).join(',')).join('\n') + '\n';
    download(`${result.name}-predictions.csv`, new Blob([text], { type: 'text/csv' }));
  });
  $('download-model').addEventListener('click', () => {
    if (app.forest) download('urnforest-model.urnf', new Blob([app.forest.toBytes()], { type: 'application/octet-stream' }));
  });

  app.onModel(modelChanged);
}
