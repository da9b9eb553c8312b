// View 1, the data: the bundled, generated or opened CSV text, its preview, its target column, and a summary
// read with Dataset.fromCSV on the page (the user's file is read with FileReader and stays in this page).
import { h } from './charts.js';
import { GENERATED, generate, previewCSV } from './math.js';
import { app, clearError, showError } from './app.js';
import { sentence } from './explain.js';
import { formChanged } from './train_panel.js';

const $ = (id) => document.getElementById(id);

function headerCells(text) {
  return (previewCSV(text, 0)[0] ?? []).map((c) => c.trim()).filter((c) => c !== '');
}

function renderPreview(text) {
  const rows = previewCSV(text, 8);
  const container = $('preview');
  if (!rows.length) { container.replaceChildren(); return; }
  const table = h('table', { class: 'data' });
  const head = table.createTHead().insertRow();
  for (const c of rows[0]) head.append(h('th', { scope: 'col', text: c }));
  const body = table.createTBody();
  for (const r of rows.slice(1)) {
    const tr = body.insertRow();
    for (const c of r) tr.append(h('td', { text: c }));
  }
  container.replaceChildren(table);
}

function useText(text, name, { is2d = false } = {}) {
  app.text = text;
  app.name = name;
  app.is2d = is2d;
  const target = $('target');
  target.replaceChildren(...headerCells(text).map((c) => new Option(c, c)));
  target.selectedIndex = target.options.length - 1;
  target.disabled = target.options.length === 0;
  renderPreview(text);
  describeData();
}

/** Reads the current text with the chosen target column and summarises it (or shows why it cannot be read). */
export function describeData() {
  const { uf, text } = app;
  if (!uf || text === null) return;
  const box = $('data-error');
  app.all?.dispose();
  app.all = null;
  try {
    const data = uf.Dataset.fromCSV(text, { target: $('target').value || undefined });
    if (data.classNames.length < 2) {
      const only = data.classNames[0];
      data.dispose();
      throw Object.assign(new Error(`its target column ${$('target').value ? `"${$('target').value}" ` : ''}` +
        `holds ${only === undefined ? 'no class' : `only one class ("${only}")`}; a classifier needs rows of at least two classes. ` +
        'Choose another target column or another file'), { code: 'OneClass' });
    }
    app.all = data;
    const categorical = data.featureTypes.filter((t) => t === 'categorical').length;
    $('data-summary').textContent = `${app.name}: ${data.numRows} rows, ${data.numFeatures} features` +
      `${categorical ? ` (${categorical} categorical)` : ''}, ${data.classNames.length} classes ` +
      `(${data.classNames.slice(0, 6).join(', ')}${data.classNames.length > 6 ? ', …' : ''})`;
    $('mtry').max = String(data.numFeatures);
    clearError(box);
    formChanged();
    app.setStatus('ready', `${app.name} is ready: choose an ensemble and press Train forest.`);
  } catch (e) {
    $('data-summary').textContent = `${app.name}: cannot be read.`;
    showError(box, e, `${app.name} cannot be read`);
    $('train').disabled = true;
    app.setStatus('error', `${app.name} cannot be read: ${sentence(e)}`);
  }
}

/** Loads the data set chosen in the list: a generated 2-D problem or a bundled CSV file. */
export async function loadChoice(value) {
  $('file').value = '';
  app.dataSource = value; // a name the page knows: it may go in a shared link (shared_link.js)
  if (value.startsWith('gen:')) {
    const kind = value.slice(4);
    useText(generate(kind, 600, Number($('seed').value) || 1), `${GENERATED[kind].label}`, { is2d: true });
    return;
  }
  $('data-summary').textContent = `Loading ${value}…`;
  $('train').disabled = true; // until the new data set is read (describeData enables it)
  app.setStatus('loading', `Loading ${value}…`);
  const response = await fetch(`../datasets/${value}.csv`);
  if (!response.ok) throw new Error(`${value}.csv could not be fetched from this page's server (HTTP status ${response.status})`);
  useText(await response.text(), `${value}.csv`);
}

/** Reads the user's file in the page. */
export function readLocalFile(file) {
  const reader = new FileReader();
  reader.onload = () => {
    app.dataSource = null; // the student's own file: never named in the address
    const text = String(reader.result);
    const head = headerCells(text);
    useText(text, file.name, { is2d: head.length === 3 });
  };
  reader.onerror = () => showError($('data-error'), { code: 'FileRead', message: reader.error?.message ?? 'the browser could not read the file' }, `${file.name} cannot be opened`);
  reader.readAsText(file);
}
