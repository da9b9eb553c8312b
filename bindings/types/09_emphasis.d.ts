// Part of dist/index.d.ts: vote-boosting's emphasisWeights and emphasisGrid.

/** emphasisWeights()'s options. */
export interface EmphasisWeightsOptions {
  /** Emphasis a > 0 (finite). */
  a: number;
  /** Emphasis b > 0 (finite); a !== b needs two classes. */
  b: number;
  /** T, the trees behind the votes; default: the first row's sum (every row must sum to T). */
  trees?: number;
}

/** Vote-boosting's emphasis of vote counts ([SMS18] §3). */
export interface EmphasisWeights {
  /**
   * The Laplace-corrected vote share per row: (t_1 + 1)/(T + 2) for two classes (class index 1 is
   * the paper's "+"), (max_k t_k + 1)/(T + l) beyond.
   */
  share: Float64Array;
  /** Training weights ∝ share^(a-1) (1 - share)^(b-1), summing to 1. */
  weights: Float64Array;
}

/**
 * Vote-boosting's weights for vote counts `votes` (rows × numClasses, row-major) of T trees, as
 * the core computes them for the next tree. Throws UrnforestError 'InvalidArgument' when a row does
 * not sum to T.
 */
export function emphasisWeights(votes: Uint32Array | Int32Array | readonly number[], numClasses: number,
  options: EmphasisWeightsOptions): EmphasisWeights;

/** The paper's grid of a = b values for the emphasis's cross-validation (frozen; needs init()). */
export function emphasisGrid(): readonly number[];
