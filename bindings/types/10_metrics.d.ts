// Part of dist/index.d.ts: confusionMatrix and the summaries of Forest and Dataset (toJSON).
export interface ClassMetrics {
  /** Rows of this true class. */
  support: number;
  /** Of those, predicted as this class. */
  correct: number;
  /** correct / support (recall); NaN without rows of the class. */
  accuracy: number;
  /** correct / rows predicted as this class; NaN when never predicted. */
  precision: number;
}

export interface ConfusionMatrix {
  /** numClasses × numClasses, row-major: matrix[t * numClasses + p] = rows of true class t predicted p. */
  matrix: Uint32Array;
  numClasses: number;
  /** Rows counted (true label -1 = unknown is skipped). */
  rows: number;
  /** Fraction of counted rows predicted right; NaN for no rows. */
  accuracy: number;
  perClass: ClassMetrics[];
}

/**
 * Confusion matrix of true class indices (e.g. dataset.labels()) against predicted ones or a
 * predict() result; numClasses defaults to the result's classNames.length, else the largest index + 1.
 */
export function confusionMatrix(
  trueLabels: Int32Array | Uint32Array | number[],
  predicted: Int32Array | Uint32Array | number[] | { classIndex: Int32Array; classNames?: string[] },
  numClasses?: number,
): ConfusionMatrix;

export interface FeatureSummary {
  name: string;
  type: FeatureType;
}

/** Forest#toJSON(): what JSON.stringify(forest) and console.log(forest) show. */
export type ForestSummary = {
  type: 'Forest';
  trees: number;
  classes: string[];
  features: FeatureSummary[];
  ensemble: EnsembleName;
  nodes: number;
  /** null when unknown (imported models). */
  oobError: number | null;
  imported: Pick<ImportedInfo, 'kind' | 'vote' | 'source' | 'calibrated'> | null;
} | { type: 'Forest'; disposed: true };

/** Dataset#toJSON(): what JSON.stringify(dataset) and console.log(dataset) show (not the data). */
export type DatasetSummary = {
  type: 'Dataset';
  rows: number;
  features: FeatureSummary[];
  /** null when the data has no target column. */
  target: string | null;
  classes: string[];
} | { type: 'Dataset'; disposed: true };
