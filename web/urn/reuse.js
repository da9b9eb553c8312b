// Keeps a picture's DOM between renders of the same layout, for the urn's pictures that are built once
// per row (the marbles, the staircase) and then only move on every draw. The DOM is the only state: a
// container that was cleared or refilled meanwhile gets the picture built again.
const built = new WeakMap(); // container -> {key, parts}

/**
 * The parts `build()` made for `key` in `container` (`parts.root` is the container's child), built anew
 * and put in the container when the key differs or the container no longer holds that root.
 */
export function reuse(container, key, build) {
  const memo = built.get(container);
  if (memo && memo.key === key && memo.parts.root.parentNode === container) return memo.parts;
  const parts = build();
  container.replaceChildren(parts.root);
  built.set(container, { key, parts });
  return parts;
}
