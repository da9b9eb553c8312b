// Citations a student can follow: every "[KEY]" of the page's reference list (section #references, the keys
// of docs/references.md) becomes a link to its entry, in the static text and in text the views write later.
const KEYS = 'SSM16|HMS11|HMS09|Sot11|MHS09|SMS18|Gag|KM26|ABC21|BAL21|Bre01|Bre96|FS97|ZZRH09|Min00|GA10';
const KEY = new RegExp(`\\[(${KEYS})\\]`, 'g');
const HAS_KEY = new RegExp(`\\[(${KEYS})\\]`);

/** Replaces "[KEY]" in the text nodes under `root` (outside links, options and scripts) by links. */
export function linkCitations(root) {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
    acceptNode: (node) => (HAS_KEY.test(node.data) && !node.parentElement.closest('a, option, script, svg, #references')
      ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_REJECT),
  });
  const nodes = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) nodes.push(n);
  for (const node of nodes) {
    const parts = [];
    let last = 0;
    for (const m of node.data.matchAll(KEY)) {
      parts.push(node.data.slice(last, m.index));
      const a = document.createElement('a');
      a.href = `#ref-${m[1]}`;
      a.className = 'ref';
      a.textContent = m[0];
      a.title = 'See the reference list at the end of the page';
      parts.push(a);
      last = m.index + m[0].length;
    }
    parts.push(node.data.slice(last));
    node.replaceWith(...parts.filter((p) => p !== ''));
  }
}
