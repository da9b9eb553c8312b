// The bad-input matrix (docs/reliability.md) through the public JS API and the native CLI: every case of
// bad_input_cases.mjs must give its stable code (or documented behaviour) in JS, the SAME outcome in
// the CLI (code, line and column; for valid input the same data set, model bytes and labels), and
// docs/reliability.md must show exactly this table (UPDATE_DOCS=1 rewrites it).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { init } from '../../dist/index.js';
import { baseModelBytes, cases, jsOutcome as runJs, sha } from './bad_input_cases.mjs';

const uf = await init();
const cli = fileURLToPath(new URL('../../build/urnforest', import.meta.url));
const docPath = new URL('../../docs/reliability.md', import.meta.url);
const dir = mkdtempSync(join(tmpdir(), 'urnforest-bad-input-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const validModel = baseModelBytes(uf);
const jsOutcome = (c) => runJs(uf, c, validModel);

function runCli(args) {
  const out = spawnSync(cli, [...args, '--json'], { encoding: 'utf8', maxBuffer: 256 << 20 });
  assert.equal(out.signal, null, `the CLI was killed by ${out.signal}: ${out.stderr}`);
  const doc = JSON.parse(out.stdout.trim().split('\n').pop());
  if (doc.error === undefined) {
    assert.equal(out.status, 0, out.stderr);
    return { doc };
  }
  assert.notEqual(out.status, 0);
  const { code, line = 0, column = 0, message } = doc.error;
  return { error: { code, line, column, message } };
}

function cliOutcome(c, key) {
  const file = (name, content) => {
    const path = join(dir, `${key}-${name}`);
    writeFileSync(path, content);
    return path;
  };
  if (c.model) {
    const r = runCli(['info', '--model', file('model.urnf', c.model(validModel))]);
    return r.error ?? { ok: {} };
  }
  const model = join(dir, `${key}.urnf`);
  const args = ['train', '--data', file('train.csv', c.cliTrain ?? c.train), '--out', model,
    '--trees', String(c.trees ?? 5), '--seed', '1'];
  if (c.target) args.push('--target', c.target);
  let r = runCli(args);
  if (r.error) return r.error;
  r = runCli(['info', '--model', model]);
  if (r.error) return r.error;
  const d = r.doc;
  const summary = {
    rows: d.train_rows, trees: d.trees, classes: d.classes, features: d.feature_names, types: d.feature_types,
    nodes: d.nodes, model: sha(readFileSync(model)),
  };
  if (c.predict !== undefined) {
    const predictArgs = ['predict', '--model', model, '--data', file('predict.csv', c.predict)];
    if (c.rule) predictArgs.push('--rule', c.rule, '--alpha', String(c.alpha));
    r = runCli(predictArgs);
    if (r.error) return r.error;
    summary.labels = r.doc.labels;
  }
  return { ok: summary };
}

function outcomeText(c) {
  if (c.want === 'ok') return c.behaviour;
  if (c.jsError) {
    const cli = c.cli === null ? '' : ` (CLI: \`InvalidArgument\` naming \`--${c.option}\`)`;
    return `\`${c.jsError.name}\` naming \`${c.option}\`${cli}`;
  }
  const where = [c.line && `line ${c.line}`, c.column && `column ${c.column}`].filter(Boolean).join(', ');
  return `\`${c.want}\`${where ? ` (${where})` : ''}`;
}

/** The matrix as a markdown table (the generated part of docs/reliability.md). */
function renderTable() {
  const rows = cases.map((c) => `| ${c.name} | ${c.input} | ${outcomeText(c)} | ${c.cli === null ? 'JS only' : 'same'} |`);
  return ['| case | input | outcome | CLI |', '|---|---|---|---|', ...rows].join('\n');
}

cases.forEach((c, i) => {
  test(`${c.name} (${c.input}) → ${c.want === 'ok' ? c.behaviour : c.want}, the same in JS and the CLI`, () => {
    const js = jsOutcome(c);
    if (c.want === 'ok') {
      assert.ok(js.ok, `expected success, got ${js.code}: ${js.message}`);
      if (c.expect) assert.ok(c.expect(js.ok), JSON.stringify(js.ok));
      if (c.sameAs) assert.deepEqual(js, jsOutcome({ ...c, ...c.sameAs }));
    } else {
      assert.equal(js.code, c.want, js.message ?? 'the call succeeded');
      if (c.line !== undefined) assert.equal(js.line, c.line, js.message);
      if (c.column !== undefined) assert.equal(js.column, c.column, js.message);
      if (c.option) assert.ok(js.message.includes(c.option), `${js.message} names ${c.option}`);
    }
    if (c.cli === null) return;
    const native = cliOutcome(c, i);
    if (c.want === 'ok') {
      assert.deepEqual(native, js, 'the CLI reads the same data and trains the same model');
    } else {
      assert.deepEqual([native.code, native.line, native.column], [js.code, js.line, js.column], native.message);
      if (c.option) assert.ok(native.message.includes(`--${c.option}`), `${native.message} names --${c.option}`);
    }
  });
});

test('docs/reliability.md shows exactly this bad-input matrix', () => {
  const doc = readFileSync(docPath, 'utf8');
  const begin = '<!-- bad-input:begin (generated by tests/js/bad_input.test.mjs; UPDATE_DOCS=1 rewrites it) -->\n';
  const end = '\n<!-- bad-input:end -->';
  const from = doc.indexOf(begin);
  const to = doc.indexOf(end);
  assert.ok(from >= 0 && to > from, 'docs/reliability.md has the bad-input markers');
  const table = renderTable();
  if (process.env.UPDATE_DOCS === '1') {
    writeFileSync(docPath, doc.slice(0, from + begin.length) + table + doc.slice(to));
  } else {
    assert.equal(doc.slice(from + begin.length, to), table,
      'the table is stale: run UPDATE_DOCS=1 node --test tests/js/bad_input.test.mjs');
  }
});
