// A dataset keeps its rows converted to a forest's layout between predictions (the dataset
// handle in bindings/wasm); these tests pin that the kept rows never leak into the answer for
// a forest whose categorical columns are laid out differently.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { init } from '../../dist/index.js';

const uf = await init();

// A categorical column `colour` (categories in first-seen order, so `first` decides the model's
// category indices), a numeric column `x` with some missing values, and a class that depends on
// both.
function csv(rows, seed, first) {
  const colours = first;
  let s = seed;
  const next = () => { s = (Math.imul(s, 1103515245) + 12345) >>> 0; return s / 2 ** 32; };
  const lines = ['colour,x,class'];
  for (let r = 0; r < rows; r++) {
    const colour = r < colours.length ? colours[r] : colours[Math.floor(next() * colours.length)];
    const x = next() * 4 - 2;
    const y = (colour === 'red') !== (x > 0.3) ? 'yes' : 'no';
    lines.push(`${colour},${r % 11 === 0 ? '' : x.toFixed(3)},${y}`);
  }
  return lines.join('\n') + '\n';
}

test('one dataset predicted by forests with different category orders answers as fresh data', () => {
  const forestA = uf.trainForest(uf.Dataset.fromCSV(csv(300, 1, ['red', 'green', 'blue'])), { trees: 31, seed: 2 });
  const forestB = uf.trainForest(uf.Dataset.fromCSV(csv(300, 5, ['blue', 'red', 'green'])), { trees: 31, seed: 3 });
  const testCsv = csv(200, 9, ['green', 'blue', 'red']);
  const shared = uf.Dataset.fromCSV(testCsv);
  const halting = { rule: 'hyper', alpha: 0.99 };
  try {
    for (const forest of [forestA, forestB, forestA, forestB]) {
      const fresh = uf.Dataset.fromCSV(testCsv);
      try {
        assert.deepEqual(forest.predict(shared).votes, forest.predict(fresh).votes);
        const kept = forest.predict(shared, halting);
        const once = forest.predict(fresh, halting);
        assert.deepEqual(kept.classIndex, once.classIndex);
        assert.deepEqual(kept.treesUsed, once.treesUsed);
        assert.deepEqual(kept.confidence, once.confidence);
      } finally {
        fresh.dispose();
      }
    }
    // The two forests really see different category indices for the same text.
    assert.notDeepEqual(forestA.predict(shared).votes, forestB.predict(shared).votes);
  } finally {
    shared.dispose();
    forestA.dispose();
    forestB.dispose();
  }
});
