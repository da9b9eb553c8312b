// Which command-line tool the CLI contract suite (tests/cli/) runs: the native build/urnforest
// (default) or, with URNFOREST_CLI=node, the Node one, bin/urnforest.mjs (the CLI's C++ compiled to
// wasm, what `npx urnforest` runs). Both are executables, so tests spawn `cli` the same way.
// scripts/test.sh runs the suite once with each.
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** 'native' or 'node': the tool under test. */
export const cliKind = process.env.URNFOREST_CLI === 'node' ? 'node' : 'native';

/** Absolute path of the executable under test. */
export const cli = cliKind === 'node' ? join(root, 'bin', 'urnforest.mjs') : join(root, 'build', 'urnforest');

/** The native tool, whichever is under test (for byte-for-byte comparisons). */
export const nativeCli = join(root, 'build', 'urnforest');

/** The Node tool, whichever is under test. */
export const nodeCli = join(root, 'bin', 'urnforest.mjs');
