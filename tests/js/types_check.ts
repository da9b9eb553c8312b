// Compiled by `tsc --noEmit --strict` in `npm test`: keeps bindings/index.d.ts honest.
// Imports the package by name (self-reference through package.json "exports", types first).
import { init, Dataset, Forest, UrnforestError, trainForest, type Prediction, type TrainOptions } from 'urnforest';

async function main(): Promise<void> {
  const uf = await init();
  const data: Dataset = uf.Dataset.fromCSV('a,b,class\n1,2,x\n3,4,y\n', { target: 'class', classOrder: 'firstSeen' });
  const arrays = Dataset.fromArrays(new Float32Array(4), {
    rows: 2, cols: 2, labels: new Int32Array([0, 1]), featureNames: ['a', 'b'], classNames: ['x', 'y'],
  });
  const named = Dataset.fromArrays(new Float32Array(2), { rows: 1, cols: 2, labels: ['x'] });
  const opts: TrainOptions = {
    ensemble: 'bagging', trees: 11, mtry: 0, mtryRule: 'log2', maxDepth: 0, minLeaf: 1, seed: 7n,
    onProgress: (done: number, total: number) => done < total,
  };
  const forest: Forest = trainForest(data, opts);
  const out: Prediction = forest.predict(arrays);
  const labels: string[] = out.labels;
  const idx: Int32Array = out.classIndex;
  const votes: Uint32Array = out.votes;
  const bytes: Uint8Array = forest.toBytes();
  const again = uf.Forest.fromBytes(bytes);
  const n: number = again.numTrees + again.numClasses + again.numFeatures + again.numNodes + again.oobError;
  const names: string[] = again.classNames.concat(again.featureNames, data.featureNames, data.classNames);
  const rows: number = data.numRows + data.numFeatures;
  const y: Int32Array = data.labels();
  const x: Float32Array = data.toRowMajor();
  const csv = Dataset.fromCSV('a,b\n1,2\n', { target: null, schemaOf: forest });
  const part: Dataset = data.subset(new Uint32Array([0, 0]));
  part.dispose();
  const stats = uf.memoryStats();
  void [labels, idx, votes, n, names, rows, y, x, stats.heapBytes + stats.inUse, data.hasLabels, data.targetName];
  try {
    Forest.fromBytes(new Uint8Array(3));
  } catch (e) {
    if (e instanceof UrnforestError) {
      const code: string = e.code;
      const where: number = e.line + e.column;
      void [code, where];
    }
  }
  for (const d of [csv, again, forest, named, arrays, data]) d.dispose();
  const disposed: boolean = data.disposed;
  void disposed;
  // @ts-expect-error unknown ensemble kinds are rejected by the types
  trainForest(data, { ensemble: 'boosting' });
  // @ts-expect-error the constructor is private: use the factories
  new Dataset();
}

void main;
