// Small numerical helpers computed live in the page: seeded RNG, generated 2-D problems, how many final
// tallies the urn's posterior lists, Condorcet's jury curve, bootstrap samples. Pure functions, no DOM. The
// urn's posterior itself and vote-boosting's weights come from the library (forest.posterior,
// emphasisWeights).

/** Seeded PRNG (mulberry32): the same seed gives the same stream in every browser. */
export function rng(seed) {
  let a = (seed >>> 0) || 0x9e3779b9;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Standard normal draws (Box–Muller) from a uniform generator. */
export function normal(rand) {
  let u = 0;
  while (u === 0) u = rand();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand());
}

/** Seeded shuffle of 0..n-1 (xorshift32, as in the first demo, so old splits reproduce). */
export function shuffledRows(n, seed) {
  let st = (seed >>> 0) || 0x9e3779b9;
  const rand = () => { st ^= st << 13; st >>>= 0; st ^= st >>> 17; st ^= st << 5; st >>>= 0; return st / 2 ** 32; };
  const rows = Uint32Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [rows[i], rows[j]] = [rows[j], rows[i]];
  }
  return rows;
}

/**
 * Generated 2-D problems as CSV text (header x,y,class), drawn with a seeded RNG.
 * - circle ([HMS11] Fig. 4): x uniform on [-1,1]^2, class "in" inside the circle of radius sqrt(2/pi)
 *   (equal areas), 5 % of labels flipped.
 * - twonorm2d: N(±(a, a), I) with a = 1 (the 20-D twonorm of [SMS18] squeezed into the plane).
 * - ringnorm2d: class "ring" N(0, 4I), class "core" N((a, a), I) with a = 1/sqrt(2).
 */
export const GENERATED = {
  circle: { label: 'circle (2-D, [HMS11] Fig. 4)', classes: ['in', 'out'] },
  twonorm2d: { label: 'twonorm-like (2-D)', classes: ['a', 'b'] },
  ringnorm2d: { label: 'ringnorm-like (2-D)', classes: ['core', 'ring'] },
};

export function generate(kind, n, seed) {
  const rand = rng(seed * 7919 + 17);
  const lines = ['x,y,class'];
  const r = Math.sqrt(2 / Math.PI);
  for (let i = 0; i < n; i++) {
    let x; let y; let c;
    if (kind === 'circle') {
      x = 2 * rand() - 1; y = 2 * rand() - 1;
      let inside = x * x + y * y < r * r;
      if (rand() < 0.05) inside = !inside;
      c = inside ? 'in' : 'out';
    } else if (kind === 'twonorm2d') {
      const a = i % 2 === 0 ? 1 : -1;
      x = a + normal(rand); y = a + normal(rand);
      c = a > 0 ? 'a' : 'b';
    } else {
      if (i % 2 === 0) { x = 2 * normal(rand); y = 2 * normal(rand); c = 'ring'; } else {
        const a = Math.SQRT1_2;
        x = a + normal(rand); y = a + normal(rand); c = 'core';
      }
    }
    lines.push(`${x.toFixed(4)},${y.toFixed(4)},${c}`);
  }
  return lines.join('\n') + '\n';
}

/** Splits CSV text into rows of cells (RFC 4180 quotes); for the preview table only (the library parses). */
export function previewCSV(text, maxRows = 8) {
  const rows = [];
  let row = [];
  let cur = '';
  let quoted = false;
  const src = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < src.length && rows.length <= maxRows; i++) {
    const ch = src[i];
    if (quoted) {
      if (ch === '"' && src[i + 1] === '"') { cur += '"'; i++; } else if (ch === '"') quoted = false; else cur += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') { row.push(cur); cur = ''; } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && src[i + 1] === '\n') i++;
      row.push(cur); cur = '';
      rows.push(row); row = [];
    } else cur += ch;
  }
  if (rows.length <= maxRows && (cur !== '' || row.length)) { row.push(cur); rows.push(row); }
  return rows;
}

/** Counts the data lines of CSV text (for "n rows" before parsing; quotes may span lines: approximate). */
export function countLines(text) {
  let n = 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) n++;
  return n + (text.length && text[text.length - 1] !== '\n' ? 1 : 0);
}

// ---- counting final tallies ---------------------------------------------------------------------

const logFactCache = [0];
/** log(n!) for integer n ≥ 0 (cached table). */
export function logFact(n) {
  for (let k = logFactCache.length; k <= n; k++) logFactCache[k] = logFactCache[k - 1] + Math.log(k);
  return logFactCache[n];
}
export function logChoose(n, k) {
  if (k < 0 || k > n) return -Infinity;
  return logFact(n) - logFact(k) - logFact(n - k);
}

/** Number of final tallies of T votes over l classes: C(T + l - 1, l - 1). */
export function numTallies(l, T) {
  return Math.round(Math.exp(logChoose(T + l - 1, l - 1)));
}

/** Final tallies beyond which the posterior is not listed (it is recomputed after every draw). */
export const MAX_POSTERIOR_TALLIES = 400_000;

// ---- ensemble concepts [Gag] -----------------------------------------------------------------

/** Condorcet: probability that a strict majority of L independent voters, each right with prob p, is right. */
export function majorityCorrect(L, p) {
  if (p <= 0) return 0;
  if (p >= 1) return 1;
  const lp = Math.log(p);
  const lq = Math.log1p(-p);
  let sum = 0;
  for (let k = Math.floor(L / 2) + 1; k <= L; k++) sum += Math.exp(logChoose(L, k) + k * lp + (L - k) * lq);
  if (L % 2 === 0) sum += 0.5 * Math.exp(logChoose(L, L / 2) + (L / 2) * (lp + lq)); // ties: a coin flip
  return Math.min(1, sum);
}

/** One bootstrap sample of n from n: multiplicity of every original point. */
export function bootstrapCounts(n, rand) {
  const counts = new Uint16Array(n);
  for (let i = 0; i < n; i++) counts[Math.floor(rand() * n)]++;
  return counts;
}

/** The index of the first largest entry of `values` (0 when empty). */
export function indexOfMax(values) {
  return values.reduce((top, v, i) => (v > values[top] ? i : top), 0);
}
