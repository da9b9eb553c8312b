// Every ```js block of README.md runs verbatim as a program (imports of 'urnforest' and
// 'urnforest/worker' point at dist/), in a folder holding the files the snippets read, where
// node_modules/urnforest is this package (for require.resolve('urnforest/examples/iris.csv')).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = new URL('../../', import.meta.url);
const readme = readFileSync(new URL('README.md', root), 'utf8');
const blocks = [...readme.matchAll(/^```js\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
const dist = (file) => new URL(`dist/${file}`, root).href;

test('README.md has js snippets', () => {
  assert.ok(blocks.length >= 3, `${blocks.length} js blocks`);
});

blocks.forEach((code, i) => {
  const firstLine = code.split('\n').find((l) => l.trim() !== '' && !l.startsWith('import'));
  test(`README js snippet ${i + 1} runs verbatim (${firstLine?.trim().slice(0, 60)})`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'urnforest-readme-'));
    try {
      copyFileSync(fileURLToPath(new URL('datasets/iris.csv', root)), join(dir, 'iris.csv'));
      copyFileSync(fileURLToPath(new URL('tests/fixtures/onnx/sk_rf_iris_nozipmap.onnx', root)), join(dir, 'model.onnx'));
      copyFileSync(fileURLToPath(new URL('tests/fixtures/xgboost/iris_softmax.model.json', root)), join(dir, 'model.json'));
      mkdirSync(join(dir, 'node_modules'));
      symlinkSync(fileURLToPath(root), join(dir, 'node_modules', 'urnforest'), 'dir');
      const program = code
        .replace(/from 'urnforest\/worker'/g, `from '${dist('worker.js')}'`)
        .replace(/from 'urnforest'/g, `from '${dist('index.js')}'`);
      assert.doesNotMatch(program, /from 'urnforest/, 'every import of the package is rewritten');
      writeFileSync(join(dir, 'snippet.mjs'), program);
      execFileSync(process.execPath, ['snippet.mjs'], { cwd: dir, stdio: 'pipe', timeout: 120_000 });
    } catch (e) {
      assert.fail(`snippet ${i + 1} failed:\n${code}\n${e.stderr?.toString() ?? e}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
