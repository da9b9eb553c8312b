// The parts of the page kept in their own HTML files (web/views/*.html), so that no file of the demo grows
// past a screenful of views: each <section data-fragment="views/x.html"> is filled with its file's markup,
// fetched from this page's own origin (the page's security policy allows no other), before the views are
// wired. The markup is the project's own static text, never a user's data.

/** Fills every [data-fragment] element with its file; rejects (with the file's name) when one cannot be fetched. */
export async function loadFragments(root = document) {
  const holders = [...root.querySelectorAll('[data-fragment]')];
  await Promise.all(holders.map(async (el) => {
    const response = await fetch(el.dataset.fragment);
    if (!response.ok) throw new Error(`${el.dataset.fragment} could not be fetched from this page's server (HTTP status ${response.status})`);
    el.innerHTML = await response.text();
    delete el.dataset.fragment;
  }));
}
