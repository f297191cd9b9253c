// Back to the top of the page when data.mark changes (Streamlit components v2, no iframe, nothing
// loaded from the network, nothing sent back). The first mark a mounted component sees only
// records it: opening or revisiting a page never scrolls it.
//
// data = { mark: a string naming the latest run, or null before the first }

const marks = new WeakMap(); // parentElement -> the mark drawn last

// The nearest ancestor that scrolls (Streamlit's main area), climbing out of the shadow root.
function scrollingArea(element) {
  for (let node = element; node; ) {
    node = node.parentElement || node.getRootNode().host || null;
    if (node && node.scrollHeight > node.clientHeight && /(auto|scroll)/.test(getComputedStyle(node).overflowY)) {
      return node;
    }
  }
  return document.scrollingElement;
}

export default function (component) {
  const { data, parentElement } = component;
  const mark = data?.mark ?? null;
  if (marks.has(parentElement) && mark !== null && marks.get(parentElement) !== mark) {
    scrollingArea(parentElement)?.scrollTo({ top: 0 });
  }
  marks.set(parentElement, mark);
}
