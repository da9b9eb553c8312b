#!/usr/bin/env node
// `npx urnforest <command> [options] [--json]`: the command-line tool on Node, no compiler needed.
// Runs the CLI's own C++ (cli/*.cpp) compiled to WebAssembly (dist/cli/urnforest_cli.mjs + .wasm): the
// same commands, options, JSON documents, files and exit codes as the native build/urnforest. Files
// are read and written through Node's fs relative to the working directory; stdout and stderr are
// the process's own. The exit code is the CLI's (0 ok, 1 failure, 2 usage). No threads: --threads is
// accepted and changes nothing (answers never depend on it).
import { readFileSync } from 'node:fs';
import runUrnforestCli from '../dist/cli/urnforest_cli.mjs';

const args = process.argv.slice(2);
try {
  // The wasm's bytes, given to the glue: its own loader would fetch() a file: URL, which Node refuses.
  const wasmBinary = readFileSync(new URL('../dist/cli/urnforest_cli.wasm', import.meta.url));
  // Resolves once main has started; main's return ends the process with its exit code.
  await runUrnforestCli({ arguments: args, thisProgram: 'urnforest', wasmBinary, printErr: () => {} });
} catch (e) {
  // The module could not start (its wasm unreadable, or no memory for it): one error, as the CLI's own.
  const reason = String(e?.message ?? e).replace(/^Aborted\((.*)\)\. Build with .*$/s, '$1');
  const message = `the command-line tool could not start: ${reason}`;
  const code = /out of memory|cannot allocate/i.test(message) ? 'OutOfMemory' : 'IoError';
  process.stderr.write(`urnforest: ${code}: ${message}\n`);
  if (args.slice(1).includes('--json')) process.stdout.write(`${JSON.stringify({ error: { code, message } })}\n`);
  process.exitCode = 1;
}
