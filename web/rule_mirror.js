// The halting controls beside the views they drive: views 3 (the whole test set) and 6 (classify) each get a
// compact copy of the rule bar's rule, α and order, and of δ (shown, like the rule bar's, for rule auto only). A copy is only a second handle on the one rule bar of
// view 2: changing it changes the rule bar (and every view follows), and the rule bar's changes, including
// the order a model forces, are copied back.

const $ = (id) => document.getElementById(id);
const FIELDS = [['rule', 'Rule', 'wide'], ['alpha', 'α (confidence)', ''], ['order', 'Tree order', '']];
const mirrors = [];

/** Copies the rule bar's options, values and disabled states into every copy. */
export function syncRuleMirrors() {
  for (const prefix of mirrors) {
    for (const [field] of FIELDS) {
      const main = $(field);
      const copy = $(`${prefix}-${field}`);
      copy.replaceChildren(...[...main.options].map((o) => {
        const option = new Option(o.text, o.value);
        option.disabled = o.disabled;
        return option;
      }));
      copy.value = main.value;
    }
    const delta = $(`${prefix}-delta`);
    $(`${prefix}-delta-cell`).hidden = $('delta-cell').hidden;
    if (document.activeElement !== delta) delta.value = $('delta').value; // never under the student's cursor
    delta.setAttribute('aria-invalid', $('delta').getAttribute('aria-invalid') ?? 'false');
  }
}

// The δ copy: a text field typed into like the rule bar's (which checks it and says why a value is refused).
function deltaCopy(prefix) {
  const cell = document.createElement('div');
  cell.id = `${prefix}-delta-cell`;
  const label = document.createElement('label');
  label.htmlFor = `${prefix}-delta`;
  label.textContent = 'δ (risk)';
  const input = document.createElement('input');
  Object.assign(input, { id: `${prefix}-delta`, type: 'text', inputMode: 'decimal', autocomplete: 'off' });
  input.setAttribute('aria-describedby', 'delta-note');
  input.addEventListener('input', () => {
    $('delta').value = input.value;
    $('delta').dispatchEvent(new Event('input'));
    syncRuleMirrors();
  });
  cell.append(label, input);
  return cell;
}

/**
 * Puts a copy of the rule controls at the top of `host` (after its explanation), with ids `${prefix}-rule`,
 * `${prefix}-alpha`, `${prefix}-order` and `${prefix}-delta` (in `${prefix}-delta-cell`).
 */
export function addRuleMirror(host, prefix, before) {
  const box = document.createElement('fieldset');
  box.className = 'rule-mirror';
  box.id = `${prefix}-rulebar`;
  const legend = document.createElement('legend');
  legend.textContent = 'Halting rule (the same as in view 2)';
  box.append(legend);
  for (const [field, text, cls] of FIELDS) {
    const cell = document.createElement('div');
    if (cls) cell.className = cls;
    const label = document.createElement('label');
    label.htmlFor = `${prefix}-${field}`;
    label.textContent = text;
    const select = document.createElement('select');
    select.id = `${prefix}-${field}`;
    if ($(select.id)) throw new Error(`rule_mirror: the page already has an element #${select.id}`);
    select.addEventListener('change', () => {
      $(field).value = select.value;
      $(field).dispatchEvent(new Event('change'));
    });
    cell.append(label, select);
    box.append(cell);
  }
  box.append(deltaCopy(prefix));
  host.insertBefore(box, before);
  if (mirrors.length === 0) $('delta').addEventListener('input', () => queueMicrotask(syncRuleMirrors)); // after the check
  mirrors.push(prefix);
  syncRuleMirrors();
}
