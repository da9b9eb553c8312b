// Calibration rows for rules auto and lp on a forest trained in the page: the rule bar's "Calibration rows"
// control takes a share of the held-out test rows (never training rows), calibrates the model on them
// (forest.calibrate: the full votes of those rows, kept in the model's bytes) and leaves them out of the test
// rows that views 2, 3 and 6 measure on, so that what the views show is measured on rows the certificate did
// not see. Which rows: the first share of the held-out rows in a fixed shuffled order (math.js), so the same
// address gives the same split.
import { shuffledRows } from './math.js';
import { sentence } from './explain.js';

const $ = (id) => document.getElementById(id);

/** The shuffle of the held-out rows (a constant: the split depends only on the rows and the share). */
const SPLIT_SEED = 20261128;

/**
 * Splits `heldOut` (sorted row indices of the data set) into {calRows, testRows} (both sorted): a share
 * `share` in [0, 1) of them for calibration, and at least one test row left.
 */
export function splitHeldOut(heldOut, share) {
  const n = heldOut.length;
  const k = Math.min(n - 1, Math.max(0, Math.round(n * share)));
  const order = shuffledRows(n, SPLIT_SEED);
  const pick = (from, to) => Uint32Array.from(order.subarray(from, to), (i) => heldOut[i]).sort();
  return { calRows: pick(0, k), testRows: pick(k, n) };
}

/**
 * The model `bytes` (trained in the page) calibrated on rows `calRows` of `all` (a Dataset), with the report
 * for α = `alpha` when 0 < alpha < 1: {bytes, report, error}. No rows: the bytes unchanged. A refusal (e.g.
 * TooFewCalibrationRows) is returned as `error` with the bytes unchanged, for the note to say.
 */
export function calibrateModel(uf, bytes, all, calRows, alpha) {
  if (calRows.length === 0) return { bytes, report: null, error: null };
  const forest = uf.Forest.fromBytes(bytes);
  const rows = all.subset(calRows);
  try {
    const report = forest.calibrate(rows, alpha > 0 && alpha < 1 ? { alpha } : {});
    return { bytes: forest.toBytes(), report, error: null };
  } catch (e) {
    return { bytes, report: null, error: e };
  } finally {
    rows.dispose();
    forest.dispose();
  }
}

/** n rows in words. */
const rows = (n) => `${n.toLocaleString('en-GB')} row${n === 1 ? '' : 's'}`;

/**
 * Says under the rule bar what the calibration used: `result` of calibrateModel, `calRows` (the rows it was
 * asked to use), `testRows` (the test rows installed: every held-out row when it was refused); data-rows
 * holds the number of calibration rows used (0 when none), for tests.
 */
export function showCalibration(result, calRows, testRows) {
  const note = $('calibrate-note');
  const used = result.report ? calRows.length : 0;
  note.dataset.rows = String(used);
  if (result.error) {
    note.textContent = `Not calibrated: ${sentence(result.error)} All ${rows(testRows.length)} held out stay test rows, ` +
      'and rule auto answers with the exact exit, which always equals the full vote.';
    return;
  }
  if (!result.report) {
    note.textContent = 'Not calibrated. Calibrate on a share of the held-out test rows (never training rows): rules auto and lp ' +
      'learn from their full votes how this forest\'s votes usually split. Without them auto answers with the exact exit, which always equals the full vote.';
    return;
  }
  const r = result.report;
  // TooFewRowsForAlpha is about the α at calibration time: the certificate says what the α chosen now needs.
  const warnings = r.warnings.filter((w) => w.code !== 'TooFewRowsForAlpha').map((w) => ` Warning (${w.code}): ${sentence(w)}`).join('');
  note.textContent = `Calibrated on ${rows(used)} drawn from the held-out rows; they are left out of the test rows, so the views ` +
    `measure on the other ${rows(testRows.length)}. With δ = 0.05 no α above ${r.maxCertifiableAlpha.toFixed(4)} can be certified ` +
    `from them: that is what auto can reach when no row it certifies on ever disagrees (it fits on a quarter of them and ` +
    `certifies on the rest; its certificate says what the α chosen needs).${warnings}`;
}
