import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
let dir;
let tarball;
let project;
// `npm pack --ignore-scripts`: npm test has just built dist/; the prepack hook would rebuild it while
// other test files read it.

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'urnforest-pack-'));
  const packed = JSON.parse(execFileSync(npm, ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: root, encoding: 'utf8' }));
  tarball = join(dir, packed[0].filename);
  project = join(dir, 'consumer');
  execFileSync('mkdir', ['-p', project]);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  execFileSync(npm, ['install', '--offline', '--no-audit', '--no-fund', '--no-package-lock', tarball], { cwd: project, stdio: 'pipe' });
});
after(() => { if (dir) rmSync(dir, { recursive: true, force: true }); });

test('the tarball holds exactly dist/ and package metadata', () => {
  const files = JSON.parse(execFileSync(npm, ['pack', '--ignore-scripts', '--dry-run', '--json'], { cwd: root, encoding: 'utf8' }))[0].files.map((f) => f.path).sort();
  assert.deepEqual(files.filter((f) => !/^(README\.md|LICENSE|package\.json)$/.test(f)), [
    'bin/urnforest.mjs', 'datasets/iris.csv', 'dist/cli/urnforest_cli.mjs', 'dist/cli/urnforest_cli.wasm',
    'dist/index.d.ts', 'dist/index.js', 'dist/predict.d.ts', 'dist/predict.js', 'dist/single-file.js', 'dist/urnforest.mjs', 'dist/urnforest.wasm',
    'dist/urnforest_predict.mjs', 'dist/urnforest_predict.wasm', 'dist/urnforest_predict_import.mjs', 'dist/urnforest_predict_import.wasm',
    'dist/urnforest_wasm.mjs', 'dist/worker.d.ts',
    'dist/worker.js', 'dist/worker_thread.js',
  ]);
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  assert.deepEqual(Object.keys(pkg.exports['.']), ['types', 'default']);
  assert.deepEqual(Object.keys(pkg.exports['./worker']), ['types', 'default']);
  assert.deepEqual(pkg.exports['./single-file'], { types: './dist/index.d.ts', default: './dist/single-file.js' });
  assert.deepEqual(pkg.exports['./predict'], { types: './dist/predict.d.ts', default: './dist/predict.js' });
  assert.equal(pkg.sideEffects, false);
  assert.match(pkg.scripts.prepack, /^URNFOREST_SKIP_BROWSER=1 URNFOREST_SKIP_NATIVE=1 scripts\/setup\.sh && scripts\/build\.sh wasm node-cli$/,
    'npm pack and npm publish set up (npm ci when needed) and build dist/ first');
  assert.deepEqual(pkg.bin, { urnforest: 'bin/urnforest.mjs' });
  assert.deepEqual(pkg.dependencies ?? {}, {});
});

test('an installed tarball imports urnforest/predict by name and predicts as urnforest does', () => {
  const script = `
    import { init, Dataset, trainForest } from 'urnforest';
    import * as only from 'urnforest/predict';
    await init();
    await only.init();
    const csv = 'a,b,class\\n' + Array.from({ length: 60 }, (_, i) => \`\${i % 7},\${(i * 3) % 5},\${i % 2 ? 'y' : 'x'}\`).join('\\n');
    const data = Dataset.fromCSV(csv);
    const forest = trainForest(data, { trees: 21, seed: 1 });
    const rows = Array.from({ length: 60 }, (_, i) => [i % 7, (i * 3) % 5]);
    const a = forest.predict(data, { rule: 'hyper' });
    const b = only.Forest.fromBytes(forest.toBytes()).predict(rows, { rule: 'hyper' });
    console.log(JSON.stringify({ same: JSON.stringify(a.labels) === JSON.stringify(b.labels) && a.meanTrees === b.meanTrees }));
  `;
  writeFileSync(join(project, 'only.mjs'), script);
  assert.deepEqual(JSON.parse(execFileSync(process.execPath, ['only.mjs'], { cwd: project, encoding: 'utf8' })), { same: true });
});

test('an installed tarball imports urnforest and urnforest/worker by name and predicts with a rule', () => {
  const script = `
    import { init } from 'urnforest';
    import { UrnforestWorker } from 'urnforest/worker';
    const uf = await init();
    const csv = 'a,b,class\\n' + Array.from({ length: 60 }, (_, i) => \`\${i % 7},\${(i * 3) % 5},\${i % 2 ? 'y' : 'x'}\`).join('\\n');
    const worker = new UrnforestWorker();
    const { bytes } = await worker.train({ csv }, { trees: 21, seed: 1 });
    worker.terminate();
    const forest = uf.Forest.fromBytes(bytes);
    const data = uf.Dataset.fromCSV(csv);
    const out = forest.predict(data, { rule: 'hyper', alpha: 0.99 });
    const mine = uf.trainForest(data, { trees: 21, seed: 1 }).toBytes();
    console.log(JSON.stringify({ rows: out.labels.length, meanTrees: out.meanTrees, same: Buffer.compare(Buffer.from(bytes), Buffer.from(mine)) === 0 }));
  `;
  writeFileSync(join(project, 'smoke.mjs'), script);
  const out = JSON.parse(execFileSync(process.execPath, ['smoke.mjs'], { cwd: project, encoding: 'utf8' }));
  assert.equal(out.rows, 60);
  assert.ok(out.meanTrees >= 1 && out.meanTrees <= 21);
  assert.equal(out.same, true);
});

// A script that copies the given dist/ files alone into a fresh folder, imports `entry` there, calls
// init() without options and predicts: what it prints, or the failure of that run.
function runCopied(files, entry) {
  const alone = mkdtempSync(join(tmpdir(), 'urnforest-alone-'));
  try {
    for (const f of files) copyFileSync(join(project, 'node_modules', 'urnforest', 'dist', f), join(alone, f));
    writeFileSync(join(alone, 'run.mjs'), `
      const { init } = await import('./${entry}');
      const uf = await init();
      const csv = 'a,b,class\\n' + Array.from({ length: 60 }, (_, i) => \`\${i % 7},\${(i * 3) % 5},\${i % 2 ? 'y' : 'x'}\`).join('\\n');
      const data = uf.Dataset.fromCSV(csv);
      const out = uf.trainForest(data, { trees: 21, seed: 1 }).predict(data, { rule: 'hyper', alpha: 0.99 });
      console.log(JSON.stringify({ rows: out.labels.length, model: Buffer.from(uf.trainForest(data, { trees: 21, seed: 1 }).toBytes()).toString('base64') }));
    `);
    return JSON.parse(execFileSync(process.execPath, ['run.mjs'], { cwd: alone, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }));
  } finally {
    rmSync(alone, { recursive: true, force: true });
  }
}

test('init() of the default entry reads the asset urnforest.wasm and needs no embedded copy', () => {
  const dist = join(project, 'node_modules', 'urnforest', 'dist');
  assert.doesNotMatch(readFileSync(join(dist, 'index.js'), 'utf8'), /urnforest_wasm/, 'the default entry never names the embedded glue');
  const out = runCopied(['index.js', 'urnforest.mjs', 'urnforest.wasm'], 'index.js');
  assert.equal(out.rows, 60);
  assert.throws(() => runCopied(['index.js', 'urnforest.mjs'], 'index.js'), /InvalidArgument.*urnforest\.wasm/s,
    'without the asset, init() fails naming the file');
});

test('urnforest/single-file runs from its file and its glue alone, with the same model bytes', () => {
  const single = runCopied(['single-file.js', 'urnforest_wasm.mjs'], 'single-file.js');
  const asset = runCopied(['index.js', 'urnforest.mjs', 'urnforest.wasm'], 'index.js');
  assert.equal(single.rows, 60);
  assert.equal(single.model, asset.model);
  const byName = execFileSync(process.execPath, ['--input-type=module', '-e',
    "const { init, wasmUrl } = await import('urnforest/single-file'); const uf = await init(); console.log(typeof uf.trainForest, typeof wasmUrl);"],
  { cwd: project, encoding: 'utf8' });
  assert.equal(byName.trim(), 'function function');
});

test('the installed types resolve for both entries (tsc --strict)', () => {
  const tsc = join(root, 'node_modules', '.bin', 'tsc');
  writeFileSync(join(project, 'types.ts'), `
    import { init, type HaltedPrediction } from 'urnforest';
    import { UrnforestWorker, type TrainResult } from 'urnforest/worker';
    export async function f(): Promise<number> {
      const uf = await init();
      const w = new UrnforestWorker();
      const r: TrainResult = await w.train({ csv: 'a,class\\n1,x\\n2,y\\n' }, { trees: 3 });
      const forest = uf.Forest.fromBytes(r.bytes);
      const p: HaltedPrediction = forest.predict(uf.Dataset.fromCSV('a\\n1\\n', { target: null }), { rule: 'siba', compare: true });
      return p.meanTrees;
    }
  `);
  execFileSync(tsc, ['--noEmit', '--strict', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--skipLibCheck', 'false', 'types.ts'], { cwd: project, stdio: 'pipe' });
});

test('importing urnforest installs no process-wide handlers', async () => {
  const before = [process.listenerCount('uncaughtException'), process.listenerCount('unhandledRejection')];
  const { init } = await import('../../dist/index.js');
  await init();
  assert.deepEqual([process.listenerCount('uncaughtException'), process.listenerCount('unhandledRejection')], before);
});

test("urnforest/worker's types resolve under TypeScript's default (node10) module resolution too", () => {
  writeFileSync(join(project, 'consumer.ts'),
    "import { UrnforestWorker } from 'urnforest/worker';\nimport { init } from 'urnforest';\nconst w: UrnforestWorker | undefined = undefined;\nconsole.log(w, init);\n");
  const tsc = join(root, 'node_modules', '.bin', 'tsc');
  execFileSync(tsc, ['--noEmit', '--strict', '--module', 'commonjs', '--target', 'es2022', 'consumer.ts'], { cwd: project, stdio: 'pipe' });
});

test('the tarball carries the MIT licence', () => {
  const files = JSON.parse(execFileSync(npm, ['pack', '--ignore-scripts', '--dry-run', '--json'], { cwd: root, encoding: 'utf8' }))[0].files.map((f) => f.path);
  assert.ok(files.includes('LICENSE'));
  assert.match(readFileSync(join(root, 'LICENSE'), 'utf8'), /^MIT License/);
});

// The README's own quick starts, as a new user runs them in an app where the tarball is installed:
// nothing rewritten, the data set read from the package (urnforest/examples/iris.csv).
const readmeBlocks = [...readFileSync(join(root, 'README.md'), 'utf8').matchAll(/^```js\n([\s\S]*?)^```$/gm)].map((m) => m[1]);

test('the README\'s Node quick start runs verbatim in the app the tarball was installed into', () => {
  const quickStart = readmeBlocks.find((b) => b.includes("resolve('urnforest/examples/iris.csv')") && !b.includes('urnforest/worker'));
  assert.ok(quickStart, 'the Node quick start reads the shipped example');
  writeFileSync(join(project, 'quick_start.mjs'), quickStart);
  const out = execFileSync(process.execPath, ['quick_start.mjs'], { cwd: project, encoding: 'utf8' });
  assert.match(out, /setosa/);
  assert.match(out, /mean trees/);
});

test('the README\'s worker snippet runs verbatim in the installed app', () => {
  const snippet = readmeBlocks.find((b) => b.includes("from 'urnforest/worker'"));
  writeFileSync(join(project, 'worker_snippet.mjs'), snippet);
  const out = execFileSync(process.execPath, ['worker_snippet.mjs'], { cwd: project, encoding: 'utf8' });
  assert.match(out, /train 1/);
});

test('npx urnforest runs the installed CLI offline: --help, and a train on the shipped example', () => {
  const help = execFileSync('npx', ['--offline', 'urnforest', '--help'], { cwd: project, encoding: 'utf8' });
  assert.match(help, /^usage: urnforest <command>/);
  const iris = join(project, 'node_modules', 'urnforest', 'datasets', 'iris.csv');
  const trained = JSON.parse(execFileSync('npx', ['--offline', 'urnforest', 'train', '--data', iris, '--trees', '11',
    '--out', 'iris.urnf', '--json'], { cwd: project, encoding: 'utf8' }));
  assert.equal(trained.rows, 150);
  assert.deepEqual(trained.classes, ['setosa', 'versicolor', 'virginica']);
  assert.equal(readFileSync(join(project, 'iris.urnf')).length, trained.model_bytes);
});
