// Shared fixtures for the node:test suites (not a test file itself).
import { after, before } from 'node:test';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const datasetsDir = new URL('../../datasets/', import.meta.url);
export const readDataset = (name) => readFileSync(new URL(`${name}.csv`, datasetsDir), 'utf8');

/** Fraction of rows whose predicted class index equals the label. */
export function accuracy(prediction, labels) {
  let right = 0;
  for (let i = 0; i < labels.length; i++) right += prediction.classIndex[i] === labels[i] ? 1 : 0;
  return right / labels.length;
}

/**
 * A consumer app in a new temporary folder: the checkout packed with `npm pack --ignore-scripts` (dist/ is
 * already built) and installed offline into `<dir>/app`, with an index.html that loads `main.js` (`mainJs`,
 * the app's code) and shows #status. Returns {dir, project}; the caller removes `dir`.
 */
export function consumerProject(prefix, mainJs) {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const packed = JSON.parse(execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: root, encoding: 'utf8' }));
  const project = join(dir, 'app');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--no-package-lock', join(dir, packed[0].filename)], { cwd: project, stdio: 'pipe' });
  writeFileSync(join(project, 'index.html'), '<!doctype html><html><body><pre id="status">loading</pre><script type="module" src="./main.js"></script></body></html>');
  writeFileSync(join(project, 'main.js'), mainJs);
  return { dir, project };
}

/**
 * A test file's consumer app (consumerProject) made before its tests and removed after them, and one
 * Chromium for them (launched on first use, closed after them): {project, browser()}. `project` is
 * the app's folder (read it inside a test), browser() the shared browser.
 */
export function consumerSuite(prefix, mainJs) {
  let made;
  let browser;
  before(() => { made = consumerProject(prefix, mainJs); });
  after(async () => {
    await browser?.close();
    if (made) rmSync(made.dir, { recursive: true, force: true });
  });
  return {
    get project() { return made.project; },
    async browser() {
      const { launchChromium } = await import('../../scripts/chromium.mjs');
      browser ??= await launchChromium();
      return browser;
    },
  };
}

/** wdbc's 30 feature columns (no label) as CSV text: the rows at even (`parity` 0) or odd (1) positions. */
export function wdbcFeatureCsv(parity) {
  const lines = readDataset('wdbc').trim().split('\n').map((l) => l.split(',').slice(0, 30).join(','));
  return [lines[0], ...lines.slice(1).filter((_, i) => i % 2 === parity)].join('\n') + '\n';
}

/**
 * scikit-learn's wdbc random forest (tests/fixtures/onnx/sk_rf_wdbc_binary_zipmap) imported with the package's
 * `Forest` and calibrated on wdbc's even rows (unlabeled); `rows`: the odd rows as a `Dataset`. The caller owns
 * both.
 */
export function calibratedWdbcForest({ Forest, Dataset }) {
  const dir = new URL('../fixtures/onnx/', import.meta.url);
  const fx = JSON.parse(readFileSync(new URL('sk_rf_wdbc_binary_zipmap.json', dir), 'utf8'));
  const forest = Forest.fromONNX(new Uint8Array(readFileSync(new URL(fx.model_file, dir))), { featureNames: fx.feature_names });
  const calibration = Dataset.fromCSV(wdbcFeatureCsv(0), { target: null });
  forest.calibrate(calibration);
  calibration.dispose();
  return { forest, rows: Dataset.fromCSV(wdbcFeatureCsv(1), { target: null }) };
}
