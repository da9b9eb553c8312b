// The training form's numbers, checked as they are typed: each field gets a verdict {ok, value, note} and
// the reason is shown under the field (aria-describedby, aria-invalid). Nothing is changed silently: a value
// the page cannot use is refused (Train stays disabled) and a value it adjusts says what will be used and why.

const $ = (id) => document.getElementById(id);

/** The most trees the page trains (its halting tables and the urn are sized for this). */
export const MAX_TREES = 1001;
const MAX_SEED = 2 ** 32 - 1;

/** A whole number typed in a field, or null (empty, a fraction, text). */
function wholeNumber(text) {
  const t = String(text).trim();
  return /^[0-9]+$/.test(t) ? Number(t) : null;
}

/** Trees: a whole number 1 … 1,001; an even number becomes the next odd one, which the note says. */
export function checkTrees(text) {
  const n = wholeNumber(text);
  if (n === null) return { ok: false, note: 'Type a whole number of trees, from 1 to 1,001.' };
  if (n < 1) return { ok: false, note: 'A forest needs at least 1 tree.' };
  if (n > MAX_TREES) return { ok: false, note: `At most 1,001 trees in this page (you typed ${n.toLocaleString('en-GB')}): the urn and the halting tables are drawn for up to 1,001.` };
  if (n % 2 === 0) return { ok: true, value: n + 1, note: `${n + 1} trees will be trained: an odd number, so that two classes cannot tie.` };
  return { ok: true, value: n, note: '' };
}

/** Seed: a whole number 0 … 4,294,967,295 (the library's 32-bit seed). */
export function checkSeed(text) {
  const n = wholeNumber(text);
  if (n === null) return { ok: false, note: 'Type a whole number (0 or more) as the seed.' };
  if (n > MAX_SEED) return { ok: false, note: 'The seed is at most 4,294,967,295 (32 bits).' };
  return { ok: true, value: n, note: '' };
}

/** mtry: 0 (the library's default, √features) … the number of features. */
export function checkMtry(text, numFeatures) {
  const n = wholeNumber(text);
  if (n === null) return { ok: false, note: 'Type a whole number of features (0 for √features).' };
  if (numFeatures > 0 && n > numFeatures) return { ok: false, note: `This data set has ${numFeatures} features: mtry can be at most ${numFeatures}.` };
  return { ok: true, value: n, note: '' };
}

/** δ of rule auto: a number more than 0 and less than 1 (the chance that its certificate is wrong). */
export function checkDelta(text) {
  const t = String(text).trim();
  const x = /^(\d+(\.\d*)?|\.\d+)$/.test(t) ? Number(t) : NaN;
  if (!Number.isFinite(x)) return { ok: false, note: 'Type δ as a number between 0 and 1, such as 0.05.' };
  if (x <= 0 || x >= 1) return { ok: false, note: `δ must be more than 0 and less than 1 (you typed ${t}): it is the chance that the certificate is wrong.` };
  return { ok: true, value: x, note: '' };
}

/** Shows `verdict` under the field `id` (the note element `${id}-note`) and marks the field. */
export function showVerdict(id, verdict) {
  const field = $(id);
  const note = $(`${id}-note`);
  note.textContent = verdict.note;
  note.classList.toggle('bad', !verdict.ok);
  field.setAttribute('aria-invalid', verdict.ok ? 'false' : 'true');
  return verdict;
}

/** Checks the whole form; returns {ok, trees, seed, mtry} (ok false when a field is refused). */
export function checkForm(numFeatures) {
  const trees = showVerdict('trees', checkTrees($('trees').value));
  const seed = showVerdict('seed', checkSeed($('seed').value));
  const mtry = $('mtry').disabled ? { ok: true, value: 0 } : showVerdict('mtry', checkMtry($('mtry').value, numFeatures));
  if ($('mtry').disabled) showVerdict('mtry', { ok: true, note: '' });
  return { ok: trees.ok && seed.ok && mtry.ok, trees: trees.value, seed: seed.value, mtry: mtry.value };
}
