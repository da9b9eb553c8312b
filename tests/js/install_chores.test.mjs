// The small promises of the install path: the Node version the README states is the one package.json
// requires (and the one tests run on), `npm start` serves on a fixed port that $PORT changes, and what
// `npm pack` and the README's CLI examples leave in the repository root is ignored by git.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { DEFAULT_PORT } from '../../scripts/serve.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const readme = readFileSync(new URL('README.md', new URL('../../', import.meta.url)), 'utf8');
const pkg = JSON.parse(readFileSync(new URL('package.json', new URL('../../', import.meta.url)), 'utf8'));

test('the README\'s Node version is the one engines requires, and the one running these tests satisfies it', () => {
  const required = Number(/^>=(\d+)$/.exec(pkg.engines.node)?.[1]);
  assert.ok(required >= 18, pkg.engines.node);
  const stated = [...readme.matchAll(/Node (\d+)\+/g)].map((m) => Number(m[1]));
  assert.ok(stated.length >= 1, 'the README states a Node version');
  assert.deepEqual([...new Set(stated)], [required]);
  assert.ok(Number(process.versions.node.split('.')[0]) >= required);
});

/** A port that is free now. */
function freePort() {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
}

/** Runs `node scripts/serve.mjs` with `env` until it prints a line; resolves to {line, child}. */
function serve(env) {
  const child = spawn(process.execPath, ['scripts/serve.mjs'], { cwd: root, env: { ...process.env, ...env } });
  return new Promise((resolve) => {
    let text = '';
    const done = () => resolve({ line: text.trim(), child });
    child.stdout.on('data', (d) => { text += d; if (text.includes('\n')) done(); });
    child.stderr.on('data', (d) => { text += d; if (text.includes('\n')) done(); });
    child.on('exit', done);
  });
}

test('npm start serves on a fixed port, 8080, documented with $PORT; PORT chooses another', async () => {
  assert.equal(DEFAULT_PORT, 8080);
  assert.match(readme, /127\.0\.0\.1:8080/);
  assert.match(readme, /\$PORT/);
  assert.equal(pkg.scripts.start, 'scripts/start.sh');
  const port = await freePort();
  const { line, child } = await serve({ PORT: String(port) });
  child.kill();
  assert.equal(line, `urnforest demo: http://127.0.0.1:${port}/web/  (Ctrl+C to stop)`);
});

test('a port in use is one clear line saying how to choose another, and exit 1', async () => {
  const port = await freePort();
  const blocker = createServer().listen(port, '127.0.0.1');
  await new Promise((r) => blocker.once('listening', r));
  try {
    const { line, child } = await serve({ PORT: String(port) });
    await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
    assert.equal(line, `serve: port ${port} is in use; choose another: PORT=${port + 1} npm start`);
    assert.equal(child.exitCode, 1);
  } finally {
    blocker.close();
  }
});

test('npm pack\'s tarball and the CLI examples\' outputs in the repository root are ignored by git', { skip: spawnSync('git', ['rev-parse'], { cwd: root }).status !== 0 && 'not a git checkout' }, () => {
  for (const file of ['urnforest-0.1.0.tgz', 'wdbc.urnf', 'wdbc-t.urnf', 'iris-sk.urnf', 'wdbc.onnx']) {
    assert.equal(spawnSync('git', ['check-ignore', '-q', file], { cwd: root }).status, 0, file);
  }
  assert.notEqual(spawnSync('git', ['check-ignore', '-q', 'tests/fixtures/onnx/sk_rf_iris_nozipmap.onnx'], { cwd: root }).status, 0);
});
