// Part of dist/index.d.ts: memoryStats, the Urnforest API object and init().
export interface MemoryStats {
  /** Size of the wasm linear memory in bytes (grows, never shrinks). */
  heapBytes: number;
  /** Bytes currently allocated inside it. */
  inUse: number;
}
export function memoryStats(): MemoryStats;

export interface Urnforest {
  Dataset: typeof Dataset;
  Forest: typeof Forest;
  HaltingTable: typeof HaltingTable;
  trainForest: typeof trainForest;
  trainForestPart: typeof trainForestPart;
  haltingTable: typeof haltingTable;
  pstar: typeof pstar;
  rules: typeof rules;
  UrnforestError: typeof UrnforestError;
  memoryStats: typeof memoryStats;
  init: typeof init;
  orderings: typeof orderings;
  runExperiment: typeof runExperiment;
  generators: typeof generators;
  emphasisWeights: typeof emphasisWeights;
  emphasisGrid: typeof emphasisGrid;
  confusionMatrix: typeof confusionMatrix;
}

/** Loads the embedded WebAssembly module (no network request). Every call resolves to the same API. */
export function init(): Promise<Urnforest>;
