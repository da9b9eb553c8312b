// View 7's true labels: the CSV's label column read with Dataset.fromCSV and matched to an imported model's
// classes, by name, or in sorted order when the model only numbers its classes (ONNX files from
// scikit-learn and XGBoost trained on text labels keep 0, 1, ... : the encoders' sorted order).

/**
 * Reads column `column` of CSV `text` as labels for a model with classes `classNames`. Returns
 * {labels: Int32Array of model class indices per row (-1 = unknown), display: the names to show for the
 * model's classes, note: a sentence for the reader (may be '')} or {labels: null, note} when the labels
 * cannot be matched to the classes. Throws the library's UrnforestError when the column cannot be read.
 */
export function readLabels(uf, text, column, classNames) {
  const data = uf.Dataset.fromCSV(text, { target: column });
  let names;
  let index;
  try {
    names = data.classNames;
    index = data.labels();
  } finally {
    data.dispose();
  }
  let map = names.map((n) => classNames.indexOf(n));
  let display = classNames.slice();
  let note = '';
  if (map.some((m) => m < 0)) {
    const numbered = classNames.every((c, i) => c === String(i));
    if (!numbered || names.length !== classNames.length) {
      return {
        labels: null,
        note: `The values in column "${column}" (${list(names)}) are not the model's classes (${list(classNames)}), ` +
          'so the predictions cannot be checked against them.',
      };
    }
    map = names.map((_, i) => i);
    display = names.slice();
    note = `The model numbers its classes ${classNames.join(', ')}; column "${column}" says ${list(names)}. ` +
      `They are matched in sorted order (${names.map((n, i) => `${classNames[i]} = ${n}`).join(', ')}), ` +
      'the numbering scikit-learn and XGBoost give text labels.';
  }
  const labels = Int32Array.from(index, (v) => (v < 0 ? -1 : map[v]));
  return { labels, display, note };
}

function list(names) {
  return names.length > 6 ? `${names.slice(0, 6).join(', ')}, …` : names.join(', ');
}
