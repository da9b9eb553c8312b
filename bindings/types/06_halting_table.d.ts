// Part of dist/index.d.ts: HaltingTable, haltingTable(), pstar() and trainForest().
export class HaltingTable {
  private constructor();
  /** Loads toBytes() output. Throws UrnforestError 'CorruptModel' / 'UnsupportedVersion'. */
  static fromBytes(bytes: Uint8Array): HaltingTable;
  readonly rule: RuleName;
  readonly alpha: number;
  /** T, the number of trees queried. */
  readonly numTrees: number;
  readonly numClasses: number;
  /** False if some exact halting set was not monotone (thresholds made conservative). */
  readonly monotone: boolean;
  /**
   * 'thresholds': every decision stored (small T and l); 'onDemand': decided for the tallies rows
   * reach and memoised (any T and l; exact where cheap, else a certified bound that never halts
   * where the exact rule would not).
   */
  readonly layout: 'thresholds' | 'pairwiseBound' | 'leadRule' | 'infiniteProduct' | 'onDemand';
  /** Milliseconds it took to build (or load) this table, prior included. */
  readonly buildMs: number;
  /** Bytes the table holds now; an 'onDemand' table grows as it decides new tallies. */
  readonly memoryBytes: number;
  /** Tallies an 'onDemand' table has decided so far (0 for the other layouts). */
  readonly memoEntries: number;
  /** True for an 'optimal' table beyond its size limit (it then decides with its prior's P* rule). */
  readonly optimalFallback: boolean;
  /** True when voting may stop at `tally` (numClasses non-negative integers summing to ≤ numTrees). */
  halts(tally: ArrayLike<number>): boolean;
  /**
   * halts() of many tallies in one call: n × numClasses counts (row-major Int32Array) or an array
   * of n tallies; 1 = halts.
   */
  haltsMany(tallies: Int32Array | ArrayLike<number>[]): Uint8Array;
  /** The rule's confidence for the strict leader (P*, a bound, or L); 0 without a strict leader. */
  confidence(tally: ArrayLike<number>): number;
  /** The strict leader's class index, or -1 on a tie for first place. */
  leader(tally: ArrayLike<number>): number;
  /** Minimum votes of class c to halt given the other classes' counts (class order, skipping c); numTrees + 1 if never. */
  minLeaderVotes(c: number, others: ArrayLike<number>): number;
  /** Two classes only (RangeError otherwise): entry k = minimum votes of class c when the other has k. */
  binaryThresholds(c: number): Int32Array;
  /**
   * Exact expected cost for a final tally (`final`, summing to numTrees; Monte Carlo only if
   * samples > 0), or averaged over the table's prior (samples default 10000). A table loaded with
   * fromBytes for a prior-based rule has no prior: UrnforestError 'InvalidArgument' without `final`.
   */
  expectedCost(options?: { final?: ArrayLike<number>; samples?: number; seed?: number | bigint }): CostEstimate;
  /** Versioned bytes (a copy), e.g. to move a table between threads. */
  toBytes(): Uint8Array;
  readonly disposed: boolean;
  /** Frees the wasm memory. Idempotent; any later use throws an Error. */
  dispose(): void;
}

export interface HaltingTableOptions {
  /** 'alpha1' | 'siba' | 'infinite' (the others need a forest: RangeError). */
  rule: RuleName;
  /** T, 1..100000; default 101. */
  trees?: number;
  /** l, 2..4096; default 2. */
  classes?: number;
  /** (0, 1]; default 0.99. */
  alpha?: number;
  /** Progress and cancellation of the build (BuildControl). */
  onProgress?: BuildControl['onProgress'];
  signal?: AbortSignal;
}

/**
 * Progress and cancellation of a halting-table build. `onProgress(done, total)` is called after each step
 * of a full table's recursion (not for the O(T) layouts); returning false cancels (UrnforestError
 * 'InvalidArgument', "cancelled"), what it throws cancels and is rethrown. `signal`: aborted before the
 * call or from onProgress, the call throws the signal's reason.
 */
export interface BuildControl {
  onProgress?: (done: number, total: number) => boolean | void;
  signal?: AbortSignal;
}

/** A table for a rule that needs no data prior. The caller owns (and must dispose) it. */
export function haltingTable(options: HaltingTableOptions): HaltingTable;

export interface PStarResult {
  /** Probability that the strict leader wins the full vote (exact or, see `exact`, a lower bound). */
  pstar: number;
  /** Strict leader, -1 on a tie. */
  leader: number;
  /** Whether the rule's table halts here. */
  halt: boolean;
  /** False for lower bounds ('infinite' with > 2 classes, 'siba' with > 4 classes). */
  exact: boolean;
}

/** P* of a partial tally for 'alpha1' | 'siba' | 'infinite'; votes sum to ≤ trees; classes defaults to votes.length. */
export function pstar(options: { rule: RuleName; trees: number; classes?: number; votes: ArrayLike<number>; alpha?: number }): PStarResult;

/** Trains a forest; the caller owns (and must dispose) the result. */
