// Tally queries: many tallies' answers (halts, confidence, leader) from one halting table handle in
// one call, for Forest.tallyAnswers (the worker's session reads them from the forest's table cache).
import { describe, countsArg } from './validate.js';

// The typed array of each question tallyAnswers answers, and how it reads a table handle.
const TALLY_QUESTIONS = {
  halts: [Uint8Array, (t, tally) => (t._halts(tally) ? 1 : 0)],
  confidence: [Float64Array, (t, tally) => t._confidence(tally)],
  leader: [Int32Array, (t, tally) => t._leader(tally)],
};

/**
 * Per tally of `tallies` (an Int32Array, n x the table's classes, row-major) the answer of the
 * internal table handle `tableFor()` returns (asked after the arguments' type checks) to `question`: 'halts' (Uint8Array, 1 = halts), 'confidence'
 * (Float64Array) or 'leader' (Int32Array, -1: no strict leader), as HaltingTable's methods answer
 * one tally (each tally checked as they check it). TypeError / RangeError naming `what`.
 */
export function tallyAnswers(tableFor, question, tallies, what) {
  // Only a string names a question (an object key would be converted, and an object without
  // toString throws an engine TypeError on the way).
  const asked = typeof question === 'string' && Object.hasOwn(TALLY_QUESTIONS, question) ? TALLY_QUESTIONS[question] : undefined;
  if (asked === undefined) throw new RangeError(`${what}: question must be 'halts', 'confidence' or 'leader', got ${describe(question)}`);
  if (!(tallies instanceof Int32Array)) throw new TypeError(`${what}: tallies must be an Int32Array (rows x classes, row-major)`);
  const table = tableFor();
  const l = table._numClasses();
  const trees = table._numTrees();
  if (tallies.length % l !== 0) throw new RangeError(`${what}: tallies must hold a multiple of ${l} (classes) counts, got ${tallies.length}`);
  const [Out, read] = asked;
  const n = tallies.length / l;
  const out = new Out(n);
  for (let i = 0; i < n; i++) out[i] = read(table, countsArg(tallies.subarray(i * l, (i + 1) * l), 'tally', l, trees));
  return out;
}
