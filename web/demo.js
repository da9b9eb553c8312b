// urnforest demo (seed): pick or open a CSV, train a forest, show holdout/OOB accuracy and timing.
// Uses only the public API of the built package. Every byte comes from the serving origin; a user's
// file is read with FileReader and stays in this page.
import { init, UrnforestError } from '/dist/index.js';

const $ = (id) => document.getElementById(id);
const status = $('status');

const state = { text: null, name: '', uf: null };

function setStatus(text) {
  status.textContent = text;
}

function percent(x) {
  return `${(100 * x).toFixed(1)} %`;
}

// The header row's cells (first line; quoted names are unquoted). Only for the target picker.
function headerCells(text) {
  const line = text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/, 1)[0] ?? '';
  const cells = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') { cur += '"'; i++; } else if (ch === '"') quoted = false; else cur += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') { cells.push(cur.trim()); cur = ''; } else cur += ch;
  }
  cells.push(cur.trim());
  return cells.filter((c) => c !== '');
}

function useText(text, name) {
  state.text = text;
  state.name = name;
  const target = $('target');
  target.replaceChildren(...headerCells(text).map((c) => new Option(c, c)));
  target.selectedIndex = target.options.length - 1;
  target.disabled = target.options.length === 0;
  describeData();
}

function describeData() {
  const { uf, text } = state;
  if (!uf || text === null) return;
  let data = null;
  try {
    data = uf.Dataset.fromCSV(text, { target: $('target').value || undefined });
    const categorical = data.featureTypes.filter((t) => t === 'categorical').length;
    $('data-summary').textContent = `${state.name}: ${data.numRows} rows, ${data.numFeatures} features` +
      `${categorical ? ` (${categorical} categorical)` : ''}, ${data.classNames.length} classes ` +
      `(${data.classNames.slice(0, 6).join(', ')}${data.classNames.length > 6 ? ', …' : ''})`;
    $('train').disabled = false;
    setStatus('ready');
  } catch (e) {
    $('data-summary').textContent = `${state.name}: ${e.message}`;
    $('train').disabled = true;
    setStatus(`error ${e.code ?? e.name} ${e.message}`);
  } finally {
    data?.dispose();
  }
}

async function loadBundled(name) {
  $('data-summary').textContent = `Loading ${name}…`;
  $('file').value = '';
  const response = await fetch(`datasets/${name}.csv`);
  if (!response.ok) throw new Error(`datasets/${name}.csv: HTTP ${response.status}`);
  useText(await response.text(), `${name}.csv`);
}

function readLocalFile(file) {
  const reader = new FileReader();
  reader.onload = () => useText(String(reader.result), file.name);
  reader.onerror = () => setStatus(`error FileRead ${reader.error?.message ?? 'cannot read the file'}`);
  reader.readAsText(file);
}

// Seeded shuffle (xorshift32) so a seed reproduces the holdout split too.
function shuffledRows(n, seed) {
  let s = (seed >>> 0) || 0x9e3779b9;
  const rand = () => { s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0; return s / 2 ** 32; };
  const rows = Uint32Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [rows[i], rows[j]] = [rows[j], rows[i]];
  }
  return rows;
}

function renderConfusion(classNames, truth, predicted) {
  const k = classNames.length;
  const container = $('confusion');
  if (k > 8) { container.replaceChildren(); return; }
  const counts = new Array(k * k).fill(0);
  for (let i = 0; i < truth.length; i++) counts[truth[i] * k + predicted[i]]++;
  const table = document.createElement('table');
  table.className = 'confusion';
  const caption = table.createCaption();
  caption.textContent = 'Holdout confusion matrix (rows: true class, columns: predicted)';
  const head = table.createTHead().insertRow();
  head.appendChild(document.createElement('th'));
  for (const name of classNames) head.appendChild(Object.assign(document.createElement('th'), { textContent: name }));
  const body = table.createTBody();
  classNames.forEach((name, t) => {
    const row = body.insertRow();
    row.appendChild(Object.assign(document.createElement('th'), { textContent: name }));
    for (let p = 0; p < k; p++) {
      const cell = row.insertCell();
      cell.textContent = counts[t * k + p];
      if (t === p) cell.className = 'diag';
      else if (counts[t * k + p] > 0) cell.className = 'miss';
    }
  });
  container.replaceChildren(table);
}

async function train() {
  const { uf, text } = state;
  const trees = Number($('trees').value);
  const seed = Number($('seed').value);
  const holdout = Number($('holdout').value);
  $('train').disabled = true;
  setStatus('training');
  await new Promise((r) => setTimeout(r, 0)); // let the page paint "training" first
  const owned = [];
  try {
    const all = uf.Dataset.fromCSV(text, { target: $('target').value || undefined });
    owned.push(all);
    let trainSet = all;
    let testSet = null;
    if (holdout > 0) {
      const rows = shuffledRows(all.numRows, seed);
      const cut = Math.round(all.numRows * (1 - holdout));
      trainSet = all.subset(rows.subarray(0, cut));
      testSet = all.subset(rows.subarray(cut));
      owned.push(trainSet, testSet);
    }
    const t0 = performance.now();
    const forest = uf.trainForest(trainSet, { ensemble: $('ensemble').value, trees, seed });
    const ms = performance.now() - t0;
    owned.push(forest);
    const bytes = forest.toBytes().length;
    const oobAccuracy = 1 - forest.oobError;
    let accuracy = oobAccuracy;
    if (testSet) {
      const out = forest.predict(testSet);
      const truth = testSet.labels();
      let right = 0;
      for (let i = 0; i < truth.length; i++) right += out.classIndex[i] === truth[i] ? 1 : 0;
      accuracy = right / truth.length;
      renderConfusion(out.classNames, truth, out.classIndex);
      $('m-accuracy').textContent = `${percent(accuracy)} (${right}/${truth.length})`;
    } else {
      $('confusion').replaceChildren();
      $('m-accuracy').textContent = 'no holdout';
    }
    $('m-oob').textContent = percent(oobAccuracy);
    $('m-time').textContent = `${ms.toFixed(1)} ms`;
    $('m-model').textContent = `${forest.numTrees} trees, ${forest.numNodes.toLocaleString('en')} nodes, ` +
      `${(bytes / 1024).toFixed(1)} KiB`;
    setStatus(`ok accuracy=${accuracy.toFixed(4)} oob=${forest.oobError.toFixed(4)} trees=${forest.numTrees} ` +
      `rows=${trainSet.numRows} holdout=${testSet ? testSet.numRows : 0} ms=${ms.toFixed(1)}`);
  } catch (e) {
    const kind = e instanceof UrnforestError ? e.code : e.name;
    setStatus(`error ${kind} ${e.message}`);
  } finally {
    for (const o of owned.reverse()) o.dispose();
    $('train').disabled = false;
  }
}

async function main() {
  try {
    state.uf = await init();
  } catch (e) {
    setStatus(`error Init ${e.message}`);
    return;
  }
  $('dataset').addEventListener('change', (ev) => loadBundled(ev.target.value).catch((e) => setStatus(`error Load ${e.message}`)));
  $('file').addEventListener('change', (ev) => { if (ev.target.files[0]) readLocalFile(ev.target.files[0]); });
  $('target').addEventListener('change', describeData);
  $('train').addEventListener('click', train);
  await loadBundled($('dataset').value);
}

main().catch((e) => setStatus(`error ${e.name} ${e.message}`));
