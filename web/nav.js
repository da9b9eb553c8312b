// The top bar's links: each scrolls to its view (below the sticky bar, whose height is kept in --topbar-h)
// and moves the keyboard focus there. With a shared state in the address (share_state.js) a link updates
// the state's view instead of replacing the address with a bare anchor, so the link stays shareable.

const $ = (id) => document.getElementById(id);

/** Scrolls to the element `id` and gives it the focus (a heading or section gets tabindex -1 for that). */
export function goTo(id, { smooth = true } = {}) {
  const target = $(id);
  if (!target) return false;
  const reduce = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  target.scrollIntoView({ behavior: smooth && !reduce ? 'smooth' : 'auto', block: 'start' });
  if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
  target.focus({ preventScroll: true });
  return true;
}

/**
 * Wires the top bar: `onView(id)` is told the view the student went to and returns true when it recorded
 * it in the address (then the link's default, a bare #anchor, is not followed).
 */
export function createNav(onView) {
  const bar = $('topbar');
  const measure = () => document.documentElement.style.setProperty('--topbar-h', `${bar.getBoundingClientRect().height}px`);
  new ResizeObserver(measure).observe(bar);
  measure();
  for (const link of bar.querySelectorAll('a[href^="#"]')) {
    link.addEventListener('click', (e) => {
      const id = link.getAttribute('href').slice(1);
      if (!onView(id)) return;
      e.preventDefault();
      goTo(id);
    });
  }
}
