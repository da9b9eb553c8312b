// Shared scaffolding of the CLI contract tests: run the tool under test (cli_binary.mjs) with
// `--json` and read its one JSON document, and a scratch folder removed when the test file exits.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from './cli_binary.mjs';

/** Runs `cli args... --json`: its exit status, its stdout parsed as JSON (null when empty) and stderr. */
export function run(...args) {
  const out = spawnSync(cli, [...args, '--json'], { encoding: 'utf8' });
  return { status: out.status, json: JSON.parse(out.stdout || 'null'), stderr: out.stderr };
}

/** Like run, asserting exit status 0; returns the JSON document. */
export function ok(...args) {
  const out = run(...args);
  assert.equal(out.status, 0, out.stderr + JSON.stringify(out.json));
  return out.json;
}

/** A new empty folder under the system's temporary folder, removed when the process exits. */
export function scratchDir(prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
