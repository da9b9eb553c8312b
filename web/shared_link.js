// The shareable address, wired to the page: keeps the hash up to date with the trained model, the rule bar,
// the urn's row and the view last gone to, and on opening an address with a state restores it (sets the
// form, loads the data set, trains, picks the row, scrolls to the view). The state itself: share_state.js.
import { goTo } from './nav.js';
import { applyFields, currentState, readState, stateHash, trainedState } from './share_state.js';

const $ = (id) => document.getElementById(id);

/**
 * `deps`: {loadChoice(value), train(), formChanged()} of the data and training panels. Returns
 * {onView(id), restore()} for the top bar and for main.js.
 */
export function createSharedLink(app, deps) {
  let trained = null; // the options of the model shown, when it was trained here from a named data set
  let view = '';
  const note = $('share-note');
  const write = () => {
    const state = currentState(trained, view);
    history.replaceState(null, '', `${location.pathname}${location.search}${state ? stateHash(state) : ''}`);
  };
  app.onModel(() => {
    trained = app.ensemble && app.dataSource ? trainedState() : null;
    note.textContent = trained ? 'The address of this page now opens this model, rule and row: copy it to share them.'
      : 'A model trained on your own file or loaded from a file is not put in the address: your data stays in this page.';
    write();
  });
  app.onRule(write);
  $('urn-row').addEventListener('change', write);
  for (const id of ['urn-random', 'urn-hard']) $(id).addEventListener('click', write);

  async function restore() {
    const state = readState(location.hash);
    if (state === null) return false;
    if (state.view !== undefined) view = state.view;
    if (state.data === undefined) { if (state.view) goTo(state.view, { smooth: false }); return false; }
    const problems = applyFields(state, app.uf.emphasisGrid());
    for (const id of ['ensemble', 'rule']) $(id).dispatchEvent(new Event(id === 'rule' ? 'change' : 'input'));
    if (problems.some((p) => p.includes('data set'))) {
      note.textContent = `This link cannot be opened: ${problems.join('; ')}.`;
      return false;
    }
    await deps.loadChoice(state.data);
    deps.formChanged();
    if (state.trees !== undefined && $('train').disabled) {
      note.textContent = 'This link\'s training options cannot be used (see the fields above): train when they are fixed.';
      return true;
    }
    const opened = `Opened from a shared link${problems.length ? `, except that ${problems.join('; ')}` : ''}.`;
    note.textContent = opened;
    if (state.trees !== undefined) await deps.train();
    note.textContent = opened; // training's own note (the address now holds this state) would hide it
    if (state.row !== undefined && app.testRows !== null) {
      $('urn-row').value = state.row;
      $('urn-row').dispatchEvent(new Event('change'));
    }
    if (state.view) goTo(state.view, { smooth: false });
    return true;
  }
  return {
    /** Records the view gone to; true when the address holds a state (the link's bare anchor is not followed). */
    onView(id) {
      if (trained === null) return false;
      view = id;
      write();
      return true;
    },
    /** Restores the state in the address; true when it loaded a data set (false: none named, or unknown). */
    restore,
  };
}
