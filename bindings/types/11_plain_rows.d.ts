// Part of dist/index.d.ts: forest.predict over plain rows (merged into class Forest's declaration).
/**
 * Rows as plain JavaScript values: number[][] with one value per model feature in the model's order
 * (forest.featureNames; NaN or null = missing), or objects keyed by feature name in any order (as
 * Dataset.fromRows with schemaOf: the forest; keys that are not features are ignored).
 */
export type PlainRows = number[][] | RowObject[];
export interface Forest {
  /**
   * predict() on plain rows: read against the model's schema into a temporary Dataset (disposed
   * before returning) and predicted as a Dataset would be, with the same options and results.
   * UrnforestError 'ShapeMismatch' when an array row's length is not forest.numFeatures (the message
   * lists the model's features in order), 'ColumnMismatch' when an object row lacks a feature;
   * TypeError for anything that is neither a Dataset nor plain rows (pointing to Dataset.fromRows).
   */
  predict(rows: PlainRows): Prediction;
  predict(rows: PlainRows, options: HaltingOptions & { compare: true; vote?: Vote }): HaltedPrediction;
  predict(rows: PlainRows, options: HaltingOptions & { compare?: false; vote?: Vote }): HaltedOnlyPrediction;
  predict(rows: PlainRows, options: HaltingOptions & { compare?: boolean; vote?: Vote }): HaltedPrediction | HaltedOnlyPrediction;
  predict(rows: PlainRows, options: FixedOrderOptions): HaltedPrediction;
  predict<O extends HaltedOut>(rows: PlainRows, options: HaltingOptions & { compare?: false; vote?: Vote },
    destination: { out: O }): HaltedInto<O>;
  predict(rows: PlainRows, options: MarginOptions): MarginPrediction;
}
