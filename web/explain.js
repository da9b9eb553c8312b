// Sentences a student reads instead of the library's terse messages: what went wrong, for a halting rule
// which rule cannot run, why, and which rules to pick instead. No DOM here (tests/e2e/explain.test.mjs
// imports it in Node; ../dist/index.js is the same module as the page's /dist/index.js).
import { ruleInfo } from '../dist/index.js';

/** Each rule's name with its summary, "siba (uniform prior)", from the library's rule table (ruleInfo). */
export const RULE_NAMES = Object.freeze(Object.fromEntries(ruleInfo.map((r) => [r.name, `${r.name} (${r.summary})`])));

/** Rules to offer when `rule` cannot run, cheapest first (siba's table depends only on T, l and α). */
const FALLBACKS = ['siba', 'hyper', 'infinite', 'alpha1'];

const int = (text) => Number(text).toLocaleString('en-GB');

/** The library's message without its leading "Code: " and with a capital and a full stop. */
export function sentence(e) {
  const code = e?.code ?? e?.name ?? '';
  let msg = String(e?.message ?? e ?? '').trim();
  if (code && msg.startsWith(`${code}: `)) msg = msg.slice(code.length + 2);
  msg = msg.replace(/^line \d+(, column \d+)?: /, '');
  if (!msg) return 'Something went wrong.';
  msg = msg[0].toUpperCase() + msg.slice(1);
  return /[.!?]$/.test(msg) ? msg : `${msg}.`;
}

/** Why a halting computation is too large, from the library's LimitExceeded message, in plain words. */
function whyTooLarge(e, numTrees, numClasses) {
  const msg = String(e?.message ?? '');
  let m = msg.match(/has (\d+) states \(limit (\d+)\)/);
  if (m) {
    return `its halting table would list every partial tally of ${numTrees} votes over ${numClasses} classes: ` +
      `${int(m[1])} of them, more than the ${int(m[2])} this page can hold in memory`;
  }
  m = msg.match(/supports T <= (\d+)/);
  if (m) return `it supports forests of at most ${int(m[1])} trees and this one has ${numTrees}`;
  m = msg.match(/limit (\d+)/);
  if (m) return `the computation would need more than ${int(m[1])} steps or cells, beyond what this page allows`;
  return `the computation for ${numTrees} trees and ${numClasses} classes is too large for this page`;
}

/**
 * Explains that halting rule `rule` cannot run on this model. Returns {text, alternatives}: a few
 * sentences (which rule, why, what to pick instead) and the rules to offer as buttons.
 */
export function ruleProblem(e, { rule, numTrees, numClasses }) {
  const alternatives = FALLBACKS.filter((r) => r !== rule).slice(0, 2);
  const code = e?.code ?? '';
  let why;
  if (code === 'LimitExceeded') why = whyTooLarge(e, numTrees, numClasses);
  else if (code === 'OutOfMemory') why = `the page ran out of memory building its halting table for ${numTrees} trees and ${numClasses} classes`;
  else why = sentence(e).replace(/\.$/, '').replace(/^./, (c) => c.toLowerCase());
  const text = `The ${rule} rule cannot run on this model: ${why}. ` +
    `Pick ${alternatives.map((r) => RULE_NAMES[r]).join(' or ')} instead (they stop early too), ` +
    `or train a forest with fewer trees.`;
  return { text, alternatives };
}
