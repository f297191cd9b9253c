// Interactive tree picture for MCTS Explorer (Streamlit components v2).
//
// Streamlit imports this module once per page (from a blob: URL keyed by the
// JS text) and calls the default export again whenever `data` changes, with
// the same `parentElement` while the element stays mounted. So the picture is
// built once per layout and later calls only move CSS classes.
//
// `data` comes as bytes (tree_view.py, picture_payload): the JSON below, then, after
// the first line break, the tagged SVG when this page is sent it (readPayload).
// data = {
//   layout:    id of the graphviz layout (hash of the SVG),
//   svg:       the tagged SVG, or null when this page was already sent it,
//   selected:  node paths to draw as the selected path (each an array of moves),
//   second:    node paths of a second path (Compare's setting B), or absent,
//   inspected: node path outlined as the inspected node, or null,
//   values:    path key (JSON of the path) -> a line the tooltip adds (the rule's value now),
//   pv:        node paths of the principal variation (the most visited line), or null: no marking,
//   clickable: whether a click (or an arrow key) chooses a node,
//   label_px:  the smallest label size on screen, in CSS px, the views zoom to (readable),
//   compact:   every move is one character (a path is written without spaces),
//   opening:   what the picture opens on: "path" (the root and the selected path) or "inspected"
//              (the path down to the inspected node, and that node's children: Classroom's question),
//   view_key:  the Python key, so pan/zoom survives a remount,
//   follows_c: whether `selected` is the selected path at the page's C (it follows a drag), or a
//              path that does not depend on C (Classroom's walk),
//   lines_id:  id of the value lines below (layout and rule), or absent: the rule is not affine in C,
//   lines:     path key -> [intercept, slope]: each drawn node's value as its parent's child in C
//              (mcts_core.analysis.DrawnValues), so the hover follows a drag; absent when this page
//              was already sent the lines of lines_id,
//   value_label: what the rule calls that value (UCB1, PUCT, ...),
//   inspected_lines: {path, chance, random, children: [{move, value: [intercept, slope]}]}: the
//              inspected node's children, passed on to the C control (event "mcts-inspected"),
// }
// While the C control (c_control.js, in the same document) is dragged it dispatches the window
// event "mcts-c-drag" with detail {c, path, role}: the red path (role "selected", or Compare's
// second path) and the hovers follow it here, with no server round trip.
// Events: trigger "clicked" (a node path), trigger "need_layout" (layout id)
// when data.svg or data.lines is absent but this page holds no copy.

// Module state outlives reruns and remounts (it is lost on a page reload).
const svgByLayout = new Map(); // layout id -> SVG text, newest last
const linesById = new Map(); // lines id -> value lines, newest last (100 kB for 1,500 nodes)
const CACHE_SIZE = 4; // a few recent entries of each: an SVG can be a few MB
const savedViews = new Map(); // view_key -> {layout, cx, cy, scale}
const views = new WeakMap(); // parentElement -> TreeView
const SVG_NS = "http://www.w3.org/2000/svg";
const EDGE_MARK = "e"; // the comment marking a big drawing's edge (tagged_svg.py, EDGE_MARK)

const NATURAL_SCALE = 4 / 3; // graphviz SVG units are pt: 1pt = 4/3 CSS px
const MAX_SCALE = 8 * NATURAL_SCALE;
const READABLE_LABEL_PX = 12; // the smallest label a view shows, unless data.label_px says more
const LARGEST_LABEL_RATIO = 5 / 3; // framing never zooms labels past this times readable (12 -> 20 px)
const VIEW_MARGIN = 24; // px kept clear around what a view is meant to show
const MIN_VISIBLE_PX = 160; // px of the picture a view uses at least, however far it runs below the window
// The picture fills the window below its top, less this gap (tree_view.css: never under 280 px):
// at 1366x768 the pictures start at y = 410-470 px, which leaves 280-340 px.
const BOTTOM_GAP = 16; // px
const DRAG_THRESHOLD = 4; // px a press may move and still count as a click
// Chromium lays out every SVG <text> that is displayed when the picture first shows and whenever
// the view moves: with 11,000 labels (5,000 nodes) a frame took 230 ms, 40 ms without them. A big
// picture displays only the labels of the nodes in or near the view (one view's size around it),
// none where they would be under LEAST_LABEL_PX, and changes only those that come or go. (Hiding
// the far nodes' shapes too made each frame that moves the view lay out 40 ms instead of 2.)
const LAZY_FROM = 1000; // <text> elements
const LEAST_LABEL_PX = 4;
// The note on the selected path goes beside the buttons when this much room is left there
// (tree_view.css: its flex basis, 12rem), else on a row of its own under them (two lines).
const NOTE_BESIDE_PX = 192;
const NOTE_ROW_PX = 40;

const pathKey = (path) => JSON.stringify(path);
const C_DRAG_EVENT = "mcts-c-drag"; // c_control.js
const INSPECTED_EVENT = "mcts-inspected"; // c_control.js ranks these children while C moves

// Every node on a path of moves as its own moves, the root's first; and as keys.
const prefixes = (moves) => [[], ...moves.map((_, i) => moves.slice(0, i + 1))];
const prefixKeys = (moves) => prefixes(moves).map(pathKey);

// Whether two views show the same (to a tenth of a pixel).
function sameView(a, b) {
  if (!a || !b) return false;
  const px = 0.1 / Math.max(a.scale, b.scale);
  return Math.abs(a.cx - b.cx) < px && Math.abs(a.cy - b.cy) < px && Math.abs(a.scale - b.scale) < 1e-6 * a.scale;
}

// The box of a node group's outline, read from its attributes ({x, y, width, height} in the
// group's units), or null when it has none we can read.
function shapeBox(el) {
  const shape = el.querySelector("path, polygon, ellipse");
  if (!shape) return null;
  if (shape.localName === "ellipse") {
    const [cx, cy, rx, ry] = ["cx", "cy", "rx", "ry"].map((name) => parseFloat(shape.getAttribute(name)));
    return { x: cx - rx, y: cy - ry, width: 2 * rx, height: 2 * ry };
  }
  const numbers = (shape.getAttribute(shape.localName === "path" ? "d" : "points") || "").match(/-?\d*\.?\d+(?:e-?\d+)?/g);
  if (!numbers || numbers.length < 4) return null;
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (let i = 0; i + 1 < numbers.length; i += 2) {
    const x = +numbers[i], y = +numbers[i + 1];
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
  }
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

// The smallest box holding both (either may be missing).
function union(a, b) {
  if (!a) return b;
  if (!b) return a;
  return { x0: Math.min(a.x0, b.x0), y0: Math.min(a.y0, b.y0), x1: Math.max(a.x1, b.x1), y1: Math.max(a.y1, b.y1) };
}

// The ancestor holding the whole page that scrolls (the child of the scrolling element): its
// height changes whenever anything above the picture does.
function pageContent(el) {
  const scroller = scrollParent(el);
  let up = el;
  while (up && up.parentElement !== scroller) up = up.parentElement || up.getRootNode().host;
  return up;
}

// The nearest ancestor that scrolls, crossing out of shadow roots; null past the document.
function scrollParent(el) {
  for (let up = el.parentElement || el.getRootNode().host; up; up = up.parentElement || up.getRootNode().host) {
    const { overflowY } = getComputedStyle(up);
    if (overflowY === "auto" || overflowY === "scroll") return up;
    if (up === document.documentElement) return up;
  }
  return null;
}

// Keep a few recent entries of a Map, newest last.
function remember(cache, id, value) {
  cache.delete(id);
  cache.set(id, value);
  while (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value);
}

class TreeView {
  constructor(parentElement) {
    this.root = parentElement.querySelector(".tv-root");
    this.viewport = this.root.querySelector(".tv-viewport");
    this.tip = this.root.querySelector(".tv-tip");
    this.status = this.root.querySelector(".tv-status");
    this.grab = this.root.querySelector(".tv-grab");
    this.note = this.root.querySelector(".tv-note");
    this.pvButton = this.root.querySelector('[data-action="pv"]');
    this.layout = null;
    this.svg = null;
    this.nodes = new Map(); // path key -> {el, path, parent, children}
    this.edges = new Map(); // path key of the child -> edge element
    // A big drawing's edges are drawn by two joined paths; a comment after a node marks the edge
    // into it (tagged_svg.py), made an element, from its piece of those paths, only while highlighted.
    this.edgeMarks = new Map(); // path key of the child -> {mark: the comment, index: its piece}
    this.edgePieces = null; // {lines, arrows}: each edge's line and arrowhead, in the marks' order
    this.madeEdges = new Map(); // edge element made from a mark -> {key, mark}
    this.view = null; // {cx, cy, scale}: graph point at the viewport centre, px per unit
    this.selectedKeys = [];
    this.pvKeys = null; // null: no principal variation to mark
    this.halos = []; // outlines drawn under the principal variation's and the inspected node's shapes
    this.boxes = new Map(); // path key -> node box in graph units, per layout
    this.autoFrame = null; // recomputes the view while nobody moved it by hand (window resizes, new paths)
    this.lastFrame = null; // {action, index, view}: pressing a path button again pans along the path
    this.cursorKey = null; // the inspected node; clicks and arrow keys move it before Python confirms
    this.marked = new Map(); // element -> the classes applyHighlight set on it, so updates touch only those
    this.pointers = new Map(); // pointerId -> {x, y} while pressed
    this.gesture = null;
    this.frame = 0;
    this.tipFor = null; // node group whose tooltip shows
    this.liveC = null; // the C the control is dragged to, null: the committed one
    this.livePaths = new Map(); // role ("selected"/"second") -> moves the C control shows, not yet committed
    this.listeners = new AbortController();
    this.bindEvents();
    this.resizeObserver = new ResizeObserver(() => this.scheduleRender());
    this.resizeObserver.observe(this.viewport);
    // Anything above the picture that grows or shrinks (an expander, a message) moves its top.
    this.pageObserver = new ResizeObserver(() => this.followWindow());
    const page = pageContent(this.root);
    if (page) this.pageObserver.observe(page);
    window.addEventListener("resize", () => this.followWindow(), { signal: this.listeners.signal });
    window.addEventListener(C_DRAG_EVENT, (event) => this.followC(event.detail), { signal: this.listeners.signal });
  }

  // C moves in the browser: re-mark the path it selects now (Python confirms it on commit). Until
  // the C control says the server has caught up, a rerun's (older) path does not replace it.
  followC({ c, path, role, done }) {
    if (done) {
      this.livePaths.delete(role);
      return;
    }
    if (role === "selected") {
      // The hover values are the page's rule at the page's C (not Compare's B).
      this.liveC = c;
      if (this.tipFor) this.tip.textContent = this.tipText(this.tipFor);
      if (!this.followsC) return;
    }
    this.livePaths.set(role, path);
    const keys = prefixKeys(path);
    const before = role === "second" ? this.secondKeys : this.selectedKeys;
    if (before && pathKey(before) === pathKey(keys)) return;
    if (role === "second") this.secondKeys = keys;
    else {
      this.selectedKeys = keys;
      this.root.setAttribute("data-selected-path", pathKey(path));
    }
    if (!this.svg) return;
    this.applyHighlight();
    // A computed view follows the path only when it leaves the view: a path that stays in view
    // never moves the picture (each move lays out every label again).
    if (this.autoFrame && this.view && !this.showsPath()) this.setView(this.autoFrame());
    else this.describePath();
  }

  // The picture's height follows the window (CSS) below its top, measured here in page coordinates
  // (scroll offsets added back), so scrolling never changes it. Written as the height itself: a
  // custom property would be inherited, and its every change (three a run, as a spinner above the
  // picture comes and goes) restyled every element of the picture: 74-85 ms each for 1,500 nodes.
  followWindow() {
    let top = this.root.getBoundingClientRect().top;
    for (let el = scrollParent(this.root); el; el = scrollParent(el)) top += el.scrollTop;
    top = Math.max(0, Math.round(top));
    if (top !== this.pageTop) {
      this.pageTop = top;
      this.root.style.height = `max(280px, calc(100dvh - ${top + BOTTOM_GAP}px))`;
    }
  }

  update(data, setTriggerValue) {
    // A fresh closure arrives with every call (it carries the fragment id).
    this.setTriggerValue = setTriggerValue;
    this.viewKey = data.view_key;
    this.followsC = data.follows_c !== false;
    this.labelPx = data.label_px || READABLE_LABEL_PX;
    this.opening = data.opening || "path";
    this.compact = data.compact !== false; // moves are one character each: a path is written without spaces
    this.followWindow();
    const live = this.livePaths.get("selected");
    const selected = live ? prefixes(live) : data.selected || [];
    this.root.setAttribute("data-selected-path", pathKey(selected.length ? selected[selected.length - 1] : []));
    if (data.svg) remember(svgByLayout, data.layout, data.svg);
    if (data.lines) remember(linesById, data.lines_id, data.lines);
    if (data.layout !== this.layout && !this.loadLayout(data.layout)) return;
    const previousPath = pathKey(this.selectedKeys);
    this.selectedKeys = selected.map(pathKey);
    const liveSecond = this.livePaths.get("second");
    this.secondKeys = (liveSecond ? prefixes(liveSecond) : data.second || []).map(pathKey);
    this.pvKeys = data.pv ? data.pv.map(pathKey) : null;
    this.pvButton.hidden = !this.pvKeys?.length;
    this.values = data.values || {};
    this.lines = data.lines_id ? linesById.get(data.lines_id) || null : null;
    // Python believes this page holds these lines (as for the SVG in loadLayout): ask for them.
    if (data.lines_id && !this.lines) this.setTriggerValue("need_layout", data.layout);
    this.valueLabel = data.value_label || "value";
    if (!this.livePaths.has("selected")) this.liveC = null; // the values above are at the committed C again
    // A tooltip left open through a commit (C typed, or arrow keys) says the new values: the pointer
    // need not move again. One on a picture just replaced is closed.
    if (this.tipFor) {
      if (this.svg?.contains(this.tipFor)) this.tip.textContent = this.tipText(this.tipFor);
      else this.hideTip();
    }
    const inspectedLines = data.inspected_lines ? { ...data.inspected_lines, value_label: this.valueLabel } : null;
    window.dispatchEvent(new CustomEvent(INSPECTED_EVENT, { detail: inspectedLines }));
    this.clickable = data.clickable !== false;
    this.viewport.classList.toggle("tv-clickable", this.clickable);
    const cursor = data.inspected ? pathKey(data.inspected) : null;
    const moved = cursor !== this.cursorKey;
    this.cursorKey = cursor;
    this.applyHighlight();
    // A computed view nobody moved (the opening view, a button's) is made again for the new path.
    if (this.autoFrame && this.view && previousPath !== pathKey(this.selectedKeys)) this.setView(this.autoFrame());
    // A node chosen elsewhere (a typed path, a button) is brought into view.
    else if (moved && cursor && this.view) this.reveal(cursor);
  }

  loadLayout(layout) {
    const text = svgByLayout.get(layout);
    if (text === undefined) {
      // Python believes this page holds the SVG (a page reload of the module,
      // or a rerun that dropped the message before it was sent). Ask on every
      // such update: the answer comes with the next update, so this cannot loop.
      this.showStatus("Loading the tree…");
      this.setTriggerValue("need_layout", layout);
      return false;
    }
    // The HTML parser reads an SVG of 5,000 nodes in a third of the XML parser's time (and the
    // result needs no copy: it is adopted). Scripts in it would never run; it has none.
    const template = document.createElement("template");
    template.innerHTML = text;
    const svg = template.content.firstElementChild;
    if (svg?.localName !== "svg" || svg.namespaceURI !== SVG_NS) {
      this.showStatus("The tree picture could not be read.");
      return false;
    }
    this.svg?.remove();
    this.svg = document.adoptNode(svg);
    this.svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
    // A big drawing's boxes hold their label lines in a comment (tagged_svg.py): a string to the
    // parser, not elements to style. They become elements when their node comes near the view
    // (showNear); the colour key's at once.
    this.deferredLabels = new Map(); // node element -> the comment holding its label lines
    for (const el of this.svg.querySelectorAll("g.node")) {
      if (el.lastChild?.nodeType === Node.COMMENT_NODE) this.deferredLabels.set(el, el.lastChild);
    }
    for (const el of [...this.deferredLabels.keys()]) if (!el.hasAttribute("data-path")) this.showLabels(el);
    // Before it is shown: only the labels near the first view are ever laid out.
    this.lazy = this.deferredLabels.size > 0 || this.svg.querySelectorAll("text").length >= LAZY_FROM;
    this.svg.classList.toggle("tv-lazy", this.lazy);
    this.near = new Set(); // node elements whose labels show (tv-near), in a lazy picture
    this.nearRegion = null;
    this.viewport.prepend(this.svg);
    this.showStatus("");
    this.layout = layout;
    this.marked = new Map();
    this.halos = [];
    this.haloKey = null;
    this.boxes.clear();
    this.lastFrame = null;
    this.indexTree();
    const saved = savedViews.get(this.viewKey);
    this.view = saved && saved.layout === layout ? { cx: saved.cx, cy: saved.cy, scale: saved.scale } : null;
    this.autoFrame = this.view ? null : () => this.openingView();
    this.scheduleRender();
    return true;
  }

  indexTree() {
    const graph = this.svg.querySelector("g.graph");
    // graphviz draws in graph coordinates and maps them to the viewBox with
    // this group's transform (a translate); node boxes need that mapping.
    const transform = graph.transform.baseVal.consolidate();
    this.graphMatrix = transform ? transform.matrix : new DOMMatrix();
    const box = this.svg.viewBox.baseVal;
    this.bounds = { x0: box.x, y0: box.y, x1: box.x + box.width, y1: box.y + box.height };

    this.nodes.clear();
    this.edges.clear();
    this.edgeMarks.clear();
    this.madeEdges.clear();
    for (const el of this.svg.querySelectorAll("g.node[data-path]")) {
      const path = JSON.parse(el.getAttribute("data-path"));
      const key = pathKey(path);
      this.nodes.set(key, { el, path, parent: null, children: [] });
      const next = el.nextSibling;
      if (next?.nodeType === Node.COMMENT_NODE && next.data === EDGE_MARK) {
        this.edgeMarks.set(key, { mark: next, index: this.edgeMarks.size });
      }
    }
    // Each piece of a joined path starts with its own "M" (tagged_svg.py writes no other).
    const joined = (cls) => this.svg.querySelector(`path.${cls}`)?.getAttribute("d").split("M").slice(1) || [];
    this.edgePieces = { lines: joined("tv-edge-lines"), arrows: joined("tv-edge-arrows") };
    // Document order is DOT order, which puts siblings in move order.
    for (const node of this.nodes.values()) {
      if (node.path.length === 0) continue;
      const parent = this.nodes.get(pathKey(node.path.slice(0, -1)));
      if (parent) {
        node.parent = parent;
        parent.children.push(node);
      }
    }
    for (const el of this.svg.querySelectorAll("g.edge[data-path]")) {
      this.edges.set(pathKey(JSON.parse(el.getAttribute("data-path"))), el);
    }
    this.rootNode = this.nodes.get("[]") || null;
    this.leftToRight = this.isLeftToRight();
    // Label size in graph units: the smallest node label decides what "readable" means. The
    // labels' common size is said once on the <svg> (tagged_svg.py); a label of another size says its own.
    const common = this.svg.getAttribute("font-size");
    let units = Infinity;
    for (const t of this.svg.querySelectorAll("g.node[data-path] text")) {
      const size = parseFloat(t.getAttribute("font-size") ?? common);
      if (size > 0 && size < units) units = size;
    }
    for (const comment of this.deferredLabels.values()) { // labels not made yet: the same, read from their text
      const own = comment.data.includes("font-size") ? [...comment.data.matchAll(/ font-size="([^"]*)"/g)] : [];
      const sizes = own.map((match) => match[1]);
      if (comment.data.split("<text").length - 1 > sizes.length) sizes.push(common);
      for (const size of sizes) if (parseFloat(size) > 0 && parseFloat(size) < units) units = parseFloat(size);
    }
    this.labelUnits = Number.isFinite(units) ? units : 14;
  }

  // Arrow keys follow the drawing (rankdir TB or LR). Siblings share a rank,
  // so their centres line up across the direction of growth.
  isLeftToRight() {
    const kids = this.rootNode?.children || [];
    if (kids.length === 0) return false;
    const boxes = kids.map((kid) => this.nodeBox(kid));
    if (boxes.length === 1) {
      const root = this.nodeBox(this.rootNode);
      return Math.abs(boxes[0].cx - root.cx) > Math.abs(boxes[0].cy - root.cy);
    }
    const spread = (key) => Math.max(...boxes.map((b) => b[key])) - Math.min(...boxes.map((b) => b[key]));
    return spread("cx") < spread("cy");
  }

  // The classes each element should carry now; only the differences from what it carries are
  // written. While C is dragged a new path changes a dozen elements out of thousands: each class
  // written restyles its element, each halo added or removed lays the picture out again.
  applyHighlight() {
    const wanted = new Map(); // element -> classes
    const mark = (el, cls) => {
      if (!el) return;
      if (!wanted.has(el)) wanted.set(el, new Set());
      wanted.get(el).add(cls);
    };
    const second = new Set(this.secondKeys);
    for (const key of this.selectedKeys) {
      const cls = second.has(key) ? "tv-both" : "tv-path";
      mark(this.nodes.get(key)?.el, cls);
      mark(this.edgeOf(key), cls);
    }
    const first = new Set(this.selectedKeys);
    for (const key of this.secondKeys) {
      if (first.has(key)) continue;
      mark(this.nodes.get(key)?.el, "tv-second");
      mark(this.edgeOf(key), "tv-second");
    }
    const inspected = this.cursorKey ? this.nodes.get(this.cursorKey)?.el : null;
    mark(inspected, "tv-inspected");
    const pv = (this.pvKeys || []).flatMap((key) => [this.nodes.get(key)?.el, this.edgeOf(key)]).filter(Boolean);
    for (const el of pv) mark(el, "tv-pv");
    for (const [el, classes] of this.marked) {
      const keep = wanted.get(el);
      if (!keep && this.madeEdges.has(el)) this.unmakeEdge(el); // drawn by the joined paths again
      else for (const cls of classes) if (!keep?.has(cls)) el.classList.remove(cls);
    }
    for (const [el, classes] of wanted) {
      const had = this.marked.get(el);
      for (const cls of classes) if (!had?.has(cls)) el.classList.add(cls);
    }
    this.marked = wanted;
    // Halos follow the inspected node and the principal variation, never the path.
    const haloKey = pathKey([this.cursorKey, this.pvKeys]);
    if (haloKey === this.haloKey) return;
    this.haloKey = haloKey;
    for (const halo of this.halos) halo.remove();
    this.halos = [];
    if (inspected) this.addHalo(inspected, "tv-inspected-halo");
    // A wide band under the element's own line: it shows through whatever colour the line takes
    // (red on the selected path), so both markings read at once.
    for (const el of pv) this.addHalo(el, "tv-pv-halo");
  }

  // The edge into the node of ``key``: its element, in a big drawing made in its mark's place (after
  // that node, where graphviz drew it) as graphviz wrote it: its line, then its arrowhead.
  edgeOf(key) {
    const made = this.edges.get(key);
    if (made) return made;
    const marked = this.edgeMarks.get(key);
    const line = this.edgePieces?.lines[marked?.index], arrow = this.edgePieces?.arrows[marked?.index];
    if (!marked || line === undefined || arrow === undefined) return undefined;
    const el = svgElement("g", { class: "edge", "data-path": this.nodes.get(key).el.getAttribute("data-path") });
    el.append(svgElement("path", { d: `M${line}` }), svgElement("polygon", { points: arrow.replace(/Z$/, "") }));
    marked.mark.replaceWith(el);
    this.edges.set(key, el);
    this.madeEdges.set(el, { key, mark: marked.mark });
    return el;
  }

  unmakeEdge(el) {
    const { key, mark } = this.madeEdges.get(el);
    this.madeEdges.delete(el);
    this.edges.delete(key);
    el.replaceWith(mark);
  }

  // A copy of the element's outline drawn just under it, styled by ``cls``.
  addHalo(el, cls) {
    const shape = el.querySelector("path, polygon, ellipse");
    if (!shape) return;
    const halo = shape.cloneNode(false);
    halo.removeAttribute("id");
    halo.setAttribute("class", cls);
    shape.before(halo);
    this.halos.push(halo);
  }

  // ---- geometry -----------------------------------------------------------

  nodeBox(node) {
    const key = pathKey(node.path);
    let box = this.boxes.get(key);
    if (!box) {
      box = this.measureBox(node);
      this.boxes.set(key, box);
    }
    return box;
  }

  // From the shape's own coordinates: getBBox would lay out the whole picture, every label
  // included, before its first frame.
  measureBox(node) {
    return this.toGraph(shapeBox(node.el) || node.el.getBBox());
  }

  // A box in the group's units ({x, y, width, height}) in graph units (the SVG's viewBox).
  toGraph(b) {
    const { a, b: mb, c, d, e, f } = this.graphMatrix;
    const px = a * b.x + c * b.y + e, py = mb * b.x + d * b.y + f;
    const qx = a * (b.x + b.width) + c * (b.y + b.height) + e, qy = mb * (b.x + b.width) + d * (b.y + b.height) + f;
    const x0 = Math.min(px, qx), x1 = Math.max(px, qx);
    const y0 = Math.min(py, qy), y1 = Math.max(py, qy);
    return { x0, y0, x1, y1, cx: (x0 + x1) / 2, cy: (y0 + y1) / 2 };
  }

  size() {
    return { w: this.viewport.clientWidth, h: this.viewport.clientHeight };
  }

  // Px at the top that the toolbar covers: views keep what they show below it. That is the
  // buttons, and in a picture too narrow for the note beside them the row under them where the note
  // goes, shown or not (the note comes and goes with the view, which must neither move for it nor
  // lie under it), unless the whole tree fits on screen at readable scale without that row: its
  // path is then always in view (the margin kept above the tree, not below it: a 7-node tree on a
  // projector is whole under the Classroom's question rather than cut for a note it never shows).
  topInset() {
    const bar = this.root.querySelector(".tv-toolbar");
    if (!bar) return 0;
    let bottom = 0, right = 0;
    for (const button of bar.querySelectorAll("button")) {
      if (button.hidden) continue;
      bottom = Math.max(bottom, button.offsetTop + button.offsetHeight);
      right = Math.max(right, button.offsetLeft + button.offsetWidth);
    }
    const buttons = bar.offsetTop + bottom;
    return bar.clientWidth - right >= NOTE_BESIDE_PX || this.wholeOnScreen(buttons) ? buttons : buttons + NOTE_ROW_PX;
  }

  // Whether the whole tree fits at readable scale below ``top`` px, on screen, with a margin around
  // it except at its bottom.
  wholeOnScreen(top) {
    const { w, h } = this.size();
    const readable = this.readableScale() * (1 - 1e-9);
    const b = this.bounds;
    return (w - 2 * VIEW_MARGIN) / (b.x1 - b.x0) >= readable
      && (h - top - this.bottomInset(top) - VIEW_MARGIN) / (b.y1 - b.y0) >= readable;
  }

  // Px at the bottom that lie below the window (a page whose controls push the picture down, at
  // least 280 px tall): views keep what they show above it, so a framed node is on screen. At least
  // MIN_VISIBLE_PX of the picture stay usable.
  bottomInset(top = this.topInset()) {
    const { h } = this.size();
    const below = this.viewport.getBoundingClientRect().bottom - window.innerHeight;
    return Math.min(Math.max(below, 0), Math.max(h - top - MIN_VISIBLE_PX, 0));
  }

  fitScale(box) {
    return this.scaleToFit(box, this.topInset());
  }

  // The scale at which ``box`` fits the picture below ``top`` px.
  scaleToFit(box, top) {
    const { w, h } = this.size();
    const sx = (w - 2 * VIEW_MARGIN) / Math.max(box.x1 - box.x0, 1);
    const sy = (h - top - this.bottomInset(top) - 2 * VIEW_MARGIN) / Math.max(box.y1 - box.y0, 1);
    return Math.max(Math.min(sx, sy), 1e-3);
  }

  clampScale(scale) {
    const fit = this.fitScale(this.bounds);
    return Math.min(Math.max(scale, Math.min(fit, NATURAL_SCALE) / 2), MAX_SCALE);
  }

  // px per graph unit at which the smallest label is readable (READABLE_LABEL_PX on screen), and
  // the most a view zooms in to frame something small.
  readableScale() {
    return this.labelPx / this.labelUnits;
  }

  largestScale() {
    return this.readableScale() * LARGEST_LABEL_RATIO;
  }

  fitsReadable(box) {
    return this.fitScale(box) >= this.readableScale() * (1 - 1e-9);
  }

  // FRAMING RULE (the opening view and every toolbar button):
  // the target's bounding box in SVG units is shown at the scale that fits it, clamped to
  // [readable, largest], readable being the scale at which the smallest label is READABLE_LABEL_PX
  // CSS px (its font-size x scale). A box that fits is aligned to the top (no blank band above a
  // small tree) and centred across. A box that does not fit at readable scale keeps readable scale
  // and puts its `anchor` (a box: the root, a stretch of a path, the inspected node) at the top,
  // or at the left edge for left-to-right drawings, with a margin; across that, it centres as near
  // the box's middle as keeps the anchor in view: never a thin strip of the whole. A stretch of a
  // long path (`fromStart`) always starts at that edge, so pressing on moves forwards.
  viewOfTarget(box, anchor, scale, fromStart = false) {
    const readable = this.readableScale();
    const s = scale ?? Math.min(Math.max(this.fitScale(box), readable), this.largestScale());
    const { w, h } = this.size();
    const top = this.topInset(), bottom = this.bottomInset();
    const halfW = w / 2 / s, halfH = h / 2 / s, pad = VIEW_MARGIN / s, topPad = (top + VIEW_MARGIN) / s;
    const bottomPad = (bottom + VIEW_MARGIN) / s;
    const fitsX = (box.x1 - box.x0) * s <= w - 2 * VIEW_MARGIN + 1e-6;
    const fitsY = (box.y1 - box.y0) * s <= h - top - bottom - 2 * VIEW_MARGIN + 1e-6;
    const clamp = (value, lo, hi) => (lo > hi ? (lo + hi) / 2 : Math.min(Math.max(value, lo), hi));
    let cx, cy;
    if (fitsX && !(fromStart && this.leftToRight)) cx = (box.x0 + box.x1) / 2;
    else if (this.leftToRight) cx = anchor.x0 - pad + halfW;
    else cx = clamp((box.x0 + box.x1) / 2, anchor.x1 + pad - halfW, anchor.x0 - pad + halfW);
    if (fitsY && !(fromStart && !this.leftToRight)) cy = box.y0 - topPad + halfH;
    else if (!this.leftToRight) cy = anchor.y0 - topPad + halfH;
    // the middle of the part between the toolbar and the window's bottom is (top - bottom)/2 px
    // below the viewport's centre
    else cy = clamp((box.y0 + box.y1) / 2 - (top - bottom) / 2 / s, anchor.y1 + bottomPad - halfH, anchor.y0 - topPad + halfH);
    return { cx, cy, scale: s };
  }

  setView(view) {
    this.view = view;
    this.scheduleRender();
  }

  boxOfKeys(keys) {
    let box = null;
    for (const key of keys) {
      const node = this.nodes.get(key);
      if (!node) continue;
      box = union(box, this.nodeBox(node));
    }
    return box;
  }

  // The views that show a path (node keys, root first): one if it fits at readable scale, else
  // consecutive stretches that each fit, sharing a node with the next, at readable scale. A frame
  // centres the path across and shows as much of the tree around it as readable labels allow
  // (the other moves matter); along, it starts at the path's start when the tree does not fit.
  pathFrames(keys) {
    const drawn = keys.filter((key) => this.nodes.has(key));
    if (drawn.length === 0) return [];
    const box = this.boxOfKeys(drawn);
    if (this.fitsReadable(box)) {
      return [{ keys: drawn, view: this.viewOfPath(box, this.aroundScale(box)) }];
    }
    const frames = [];
    let i = 0;
    for (;;) {
      let j = i + 1;
      while (j < drawn.length && this.fitsReadable(this.boxOfKeys(drawn.slice(i, j + 1)))) j++;
      const keysHere = drawn.slice(i, j);
      // The stretch stays wholly in view, shifted towards the next node (its edge shows the way on).
      const stretch = this.boxOfKeys(keysHere);
      const ahead = j < drawn.length ? union(stretch, this.boxOfKeys([drawn[j]])) : stretch;
      frames.push({ keys: keysHere, view: this.viewOfTarget(ahead, stretch, this.readableScale(), true) });
      if (j >= drawn.length) return frames;
      i = j - 1 > i ? j - 1 : j;
    }
  }

  // The scale of a view of ``box`` (which fits at readable scale) that shows as much of the tree
  // around it as readable labels allow: the whole tree if it fits, and never zoomed past largest.
  aroundScale(box) {
    return Math.min(Math.max(this.fitScale(this.bounds), this.readableScale()), this.fitScale(box), this.largestScale());
  }

  // A view at ``scale`` of a path's box that fits: across the direction of growth the path is in
  // the middle of the usable part (the tree's edge kept at the view's edge where it is nearer);
  // along it the whole tree is centred if it fits, else the path's start is at the edge.
  viewOfPath(box, scale) {
    const { w, h } = this.size();
    const top = this.topInset(), bottom = this.bottomInset();
    const halfW = w / 2 / scale, halfH = h / 2 / scale, pad = VIEW_MARGIN / scale;
    const usableTop = (top + VIEW_MARGIN) / scale, usableBottom = (bottom + VIEW_MARGIN) / scale;
    const b = this.bounds;
    // Centre [lo, hi] in a window of ``half`` each side whose usable part is [c - half + before, c + half - after];
    // keep the tree's edges from leaving a blank band where the tree could fill it.
    // (the usable part's middle is (before - after) / 2 past the window's)
    const centre = (lo, hi, tlo, thi, half, before, after) => {
      const c = (lo + hi) / 2 - (before - after) / 2;
      if (thi - tlo <= 2 * half - before - after) return (tlo + thi) / 2 - (before - after) / 2;
      return Math.min(Math.max(c, tlo - before + half), thi + after - half);
    };
    const along = (lo, hi, tlo, thi, half, before, after) =>
      thi - tlo <= 2 * half - before - after ? (tlo + thi) / 2 - (before - after) / 2 : lo - before + half;
    if (this.leftToRight) {
      return {
        cx: along(box.x0, box.x1, b.x0, b.x1, halfW, pad, pad),
        cy: centre(box.y0, box.y1, b.y0, b.y1, halfH, usableTop, usableBottom),
        scale,
      };
    }
    return {
      cx: centre(box.x0, box.x1, b.x0, b.x1, halfW, pad, pad),
      cy: along(box.y0, box.y1, b.y0, b.y1, halfH, usableTop, usableBottom),
      scale,
    };
  }

  // The whole tree if it fits at readable scale, else its top levels: every node down to the
  // deepest level that still fits (at least the root's children, anchored on the root).
  fitView() {
    const rootBox = this.rootNode ? this.nodeBox(this.rootNode) : this.bounds;
    if (this.fitsReadable(this.bounds) || !this.rootNode) return this.viewOfTarget(this.bounds, rootBox);
    const levels = [];
    for (const node of this.nodes.values()) levels[node.path.length] = union(levels[node.path.length], this.nodeBox(node));
    let box = union(levels[0], levels[1]);
    for (let depth = 2; depth < levels.length; depth++) {
      const deeper = union(box, levels[depth]);
      if (!this.fitsReadable(deeper)) break;
      box = deeper;
    }
    return this.viewOfTarget(box, rootBox);
  }

  // The selected path's keys, root first.
  pathKeys() {
    return ["[]", ...this.selectedKeys.filter((key) => key !== "[]")];
  }

  // Opening: the whole tree if it fits at readable scale, else the root and the selected path
  // (the stretch holding the inspected node when the path is long: Playback's new node); opening
  // on the inspected node, else the path down to it and its children, or the node and its children.
  openingView() {
    if (this.fitsReadable(this.bounds)) return this.fitView();
    if (this.opening === "inspected" && this.nodes.has(this.cursorKey)) {
      const node = this.nodes.get(this.cursorKey);
      const keys = [...prefixKeys(node.path), ...node.children.map((kid) => pathKey(kid.path))];
      const box = this.boxOfKeys(keys);
      if (this.fitsReadable(box)) return this.viewOfPath(box, this.aroundScale(box));
      return this.inspectedView();
    }
    if (this.selectedKeys.length === 0) return this.fitView();
    const frames = this.pathFrames(this.pathKeys());
    if (frames.length === 0) return this.fitView();
    return (frames.find((frame) => frame.keys.includes(this.cursorKey)) || frames[0]).view;
  }

  // Whether a node is wholly in the usable part of the view. The picture's size and insets are the
  // last frame's: read here, mid-drag, right after the path's classes changed, they would make the
  // browser restyle and lay out at once.
  inView(node) {
    if (!this.view || !this.rendered) return false;
    const { w, h, top, bottom } = this.rendered;
    const { cx, cy, scale } = this.view;
    const b = this.nodeBox(node);
    return b.x0 >= cx - w / 2 / scale && b.x1 <= cx + w / 2 / scale
      && b.y0 >= cy - h / 2 / scale + top / scale && b.y1 <= cy + h / 2 / scale - bottom / scale;
  }

  // How many of the selected path's drawn nodes are in view, and the first unbroken run of them
  // (indices into the path's drawn nodes).
  pathInView() {
    const keys = this.pathKeys().filter((key) => this.nodes.has(key));
    const seen = { keys, shown: 0, first: -1, last: -1 };
    keys.forEach((key, index) => {
      if (!this.inView(this.nodes.get(key))) return;
      seen.shown++;
      if (seen.first < 0) seen.first = seen.last = index;
      else if (seen.last === index - 1) seen.last = index;
    });
    return seen;
  }

  // Whether every drawn node of the selected path is in view.
  showsPath() {
    const { keys, shown } = this.pathInView();
    return shown === keys.length;
  }

  // The note beside the buttons: how much of the selected path is in view, and how to follow it.
  describePath() {
    const { keys, shown, first, last } = this.pathInView();
    let text = "";
    if (keys.length > 1 && shown < keys.length) {
      const moves = this.selectedKeys.length - 1;
      const follow = "Press “Selected path” to follow it.";
      if (first < 0) text = "Selected path: out of view. Press “Selected path” to show it.";
      else if (first === 0) {
        let upTo = JSON.parse(keys[last]).join(this.compact ? "" : " ");
        if (upTo.length > 60) upTo = `…${upTo.slice(-60)}`;
        text = last === 0
          ? `Selected path: the root in view, not its first move. ${follow}`
          : `Selected path: its first ${last} of ${moves} move${moves === 1 ? "" : "s"} in view, up to ${upTo}. ${follow}`;
      } else text = `Selected path: moves ${first}–${last} of ${moves} in view. ${follow}`;
    }
    // A picture opened on the inspected node (Classroom's question) shows it and its children, as
    // many as fit at readable labels: it says so when some do not.
    const asked = this.opening === "inspected" && !text ? this.nodes.get(this.cursorKey) : null;
    if (asked && this.inView(asked)) {
      const shown = asked.children.filter((kid) => this.inView(kid)).length;
      if (shown < asked.children.length) {
        let name = asked.path.join(this.compact ? "" : " ");
        if (name.length > 40) name = `…${name.slice(-40)}`;
        text = `${shown} of ${name ? `${name}’s` : "the root’s"} ${asked.children.length} children in view: drag the picture to see the others.`;
      }
    }
    if (text !== this.note.textContent) this.note.textContent = text;
    this.note.hidden = !text;
  }

  // The inspected node and its children.
  inspectedView() {
    const node = this.nodes.get(this.cursorKey);
    if (!node) return null;
    const box = this.boxOfKeys([this.cursorKey, ...node.children.map((kid) => pathKey(kid.path))]);
    return this.viewOfTarget(box, this.nodeBox(node));
  }

  // A path button frames the path; pressed again with the view untouched, it pans to the next stretch.
  // Pressed while the view is already one of the path's frames (the opening view is the first),
  // it moves on to the next: a press always changes what is shown, unless the path fits one view.
  showPath(action, keys) {
    const frames = this.pathFrames(keys);
    if (frames.length === 0) return;
    const last = this.lastFrame;
    const again = last && last.action === action && last.view === this.view;
    const showing = frames.findIndex((frame) => sameView(frame.view, this.view));
    const index = again ? (last.index + 1) % frames.length : showing >= 0 ? (showing + 1) % frames.length : 0;
    this.frameBy(() => {
      const now = this.pathFrames(keys);
      return now[Math.min(index, now.length - 1)].view;
    });
    this.lastFrame = { action, index, view: this.view };
  }

  // Show a computed view and keep it computed (window resizes) until a gesture moves it.
  frameBy(compute) {
    this.autoFrame = compute;
    this.setView(compute());
  }

  centreOn(key) {
    const node = this.nodes.get(key);
    if (!node) return;
    this.autoFrame = null;
    const b = this.nodeBox(node);
    this.setView({ cx: b.cx, cy: b.cy, scale: this.clampScale(Math.max(this.view.scale, NATURAL_SCALE)) });
  }

  // Pan (at the same zoom) just enough to bring a node fully into view.
  reveal(key) {
    const node = this.nodes.get(key);
    if (!node) return;
    this.autoFrame = null;
    const b = this.nodeBox(node);
    const { w, h } = this.size();
    const { cx, cy, scale } = this.view;
    const halfW = w / 2 / scale, halfH = h / 2 / scale, pad = VIEW_MARGIN / scale;
    const shift = (lo, hi, c, half, topPad = pad) => {
      if (hi - lo > 2 * half - topPad - pad) return (lo + hi) / 2 - c;
      if (lo < c - half + topPad) return lo - (c - half + topPad);
      if (hi > c + half - pad) return hi - (c + half - pad);
      return 0;
    };
    const topPad = pad + this.topInset() / scale; // nothing revealed under the toolbar
    this.setView({ cx: cx + shift(b.x0, b.x1, cx, halfW), cy: cy + shift(b.y0, b.y1, cy, halfH, topPad), scale });
  }

  zoomAt(factor, clientX, clientY) {
    this.autoFrame = null;
    const rect = this.viewport.getBoundingClientRect();
    const { cx, cy, scale } = this.view;
    const next = this.clampScale(scale * factor);
    // Keep the graph point under the cursor where it is.
    const dx = clientX - rect.left - rect.width / 2;
    const dy = clientY - rect.top - rect.height / 2;
    const px = cx + dx / scale, py = cy + dy / scale;
    this.setView({ cx: px - dx / next, cy: py - dy / next, scale: next });
  }

  panBy(dxPx, dyPx) {
    this.autoFrame = null;
    const { cx, cy, scale } = this.view;
    this.setView({ cx: cx - dxPx / scale, cy: cy - dyPx / scale, scale });
  }

  // A lazy picture: the labels of the nodes within one view's size of the view show, the others
  // not; none when they would be too small to read. Only the nodes that come or go change.
  // The region is kept while the view stays within half a view of where it was made (so a view
  // that moves back and forth, following a drag's path, toggles nothing).
  showNear(x, y, w, h) {
    if (!this.lazy) return;
    const tiny = this.view.scale * this.labelUnits < LEAST_LABEL_PX;
    if (tiny !== this.svg.classList.contains("tv-tiny")) {
      this.svg.classList.toggle("tv-tiny", tiny);
      if (!tiny) this.nearRegion = null; // labels too small before were never made: make them now
    }
    const region = this.nearRegion;
    if (region && region.layout === this.layout && Math.abs(x - region.x) <= w / 2 && Math.abs(y - region.y) <= h / 2
        && Math.abs(w / region.w - 1) < 0.2) return;
    this.nearRegion = { layout: this.layout, x, y, w };
    const x0 = x - w, x1 = x + 2 * w, y0 = y - h, y1 = y + 2 * h;
    const meets = (b) => b.x1 > x0 && b.x0 < x1 && b.y1 > y0 && b.y0 < y1;
    const near = new Set();
    for (const node of this.nodes.values()) if (meets(this.nodeBox(node))) near.add(node.el);
    for (const el of this.near) if (!near.has(el)) el.classList.remove("tv-near");
    for (const el of near) if (!this.near.has(el)) el.classList.add("tv-near");
    this.near = near;
    if (!tiny) for (const el of near) this.showLabels(el);
  }

  // A box's label lines as elements, from the comment the server wrote them in (graphviz's
  // markup, its text escaped: parsed as the rest of the picture was).
  showLabels(el) {
    const comment = this.deferredLabels.get(el);
    if (!comment) return;
    this.deferredLabels.delete(el);
    comment.remove();
    el.insertAdjacentHTML("beforeend", comment.data);
  }

  // Many wheel/pointer events can arrive per frame: write the viewBox once.
  scheduleRender() {
    if (!this.frame) this.frame = requestAnimationFrame(() => this.render());
  }

  render() {
    this.frame = 0;
    if (!this.svg) return;
    const { w, h } = this.size();
    if (w === 0 || h === 0) return; // not laid out yet (hidden tab); ResizeObserver calls again
    // The first view needs the viewport's size, so it is made here; a computed view nobody moved is
    // made again when the picture's size changes (the window, the page above it).
    if (!this.view || (this.autoFrame && (w !== this.framedSize?.w || h !== this.framedSize?.h))) {
      const framed = this.view === this.lastFrame?.view;
      this.view = (this.autoFrame || (() => this.openingView()))();
      if (framed) this.lastFrame.view = this.view;
    }
    this.framedSize = { w, h };
    this.rendered = { w, h, top: this.topInset(), bottom: this.bottomInset() };
    const { cx, cy, scale } = this.view;
    const vw = w / scale, vh = h / scale;
    this.svg.setAttribute("viewBox", `${cx - vw / 2} ${cy - vh / 2} ${vw} ${vh}`);
    savedViews.set(this.viewKey, { layout: this.layout, ...this.view });
    this.showNear(cx - vw / 2, cy - vh / 2, vw, vh);
    this.describePath();
  }

  // ---- interaction --------------------------------------------------------

  bindEvents() {
    const opts = { signal: this.listeners.signal };
    const vp = this.viewport;
    this.root.querySelector(".tv-toolbar").addEventListener("click", (e) => this.onButton(e), opts);
    vp.addEventListener("wheel", (e) => this.onWheel(e), { ...opts, passive: false });
    vp.addEventListener("pointerdown", (e) => this.onPointerDown(e), opts);
    vp.addEventListener("pointermove", (e) => this.onPointerMove(e), opts);
    vp.addEventListener("pointerup", (e) => this.onPointerUp(e), opts);
    vp.addEventListener("pointercancel", (e) => this.onPointerUp(e), opts);
    vp.addEventListener("pointerleave", () => this.hideTip(), opts);
    vp.addEventListener("keydown", (e) => this.onKey(e), opts);
  }

  onButton(event) {
    const action = event.target.closest("button")?.dataset.action;
    if (!action || !this.view) return;
    if (action === "fit") this.frameBy(() => this.fitView());
    else if (action === "root") this.centreOn("[]");
    else if (action === "path") this.showPath(action, this.pathKeys());
    else if (action === "pv" && this.pvKeys) this.showPath(action, ["[]", ...this.pvKeys.filter((key) => key !== "[]")]);
    else if (action === "inspected" && this.nodes.has(this.cursorKey)) this.frameBy(() => this.inspectedView());
  }

  onWheel(event) {
    if (!this.view) return;
    event.preventDefault();
    // Lines/pages (Firefox, some mice) are far coarser than pixels.
    const unit = event.deltaMode === 1 ? 16 : event.deltaMode === 2 ? this.size().h : 1;
    // Trackpad pinch arrives as ctrl+wheel with small deltas: zoom faster.
    const rate = event.ctrlKey ? 0.01 : 0.002;
    this.zoomAt(Math.exp(-event.deltaY * unit * rate), event.clientX, event.clientY);
  }

  nodeAt(target) {
    const el = target.closest?.("g.node[data-path]");
    return el ? JSON.parse(el.getAttribute("data-path")) : null;
  }

  onPointerDown(event) {
    if (!this.view || (event.pointerType === "mouse" && event.button !== 0)) return;
    this.viewport.focus({ preventScroll: true });
    this.viewport.setPointerCapture(event.pointerId);
    this.pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    this.hideTip();
    if (this.pointers.size === 1) {
      // Capture retargets later events to the viewport, so remember the node now.
      this.gesture = { startX: event.clientX, startY: event.clientY, dragged: false, node: this.nodeAt(event.target) };
    } else {
      this.gesture = { dragged: true, node: null, pinch: this.pinchState() };
    }
  }

  pinchState() {
    const [a, b] = [...this.pointers.values()];
    return { dist: Math.hypot(a.x - b.x, a.y - b.y), mx: (a.x + b.x) / 2, my: (a.y + b.y) / 2 };
  }

  onPointerMove(event) {
    const previous = this.pointers.get(event.pointerId);
    if (!previous) {
      this.moveTip(event);
      return;
    }
    this.pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    const g = this.gesture;
    if (this.pointers.size >= 2 && g.pinch) {
        const now = this.pinchState();
      this.panBy(now.mx - g.pinch.mx, now.my - g.pinch.my);
      if (g.pinch.dist > 0) this.zoomAt(now.dist / g.pinch.dist, now.mx, now.my);
      g.pinch = now;
      return;
    }
    if (!g.dragged && Math.hypot(event.clientX - g.startX, event.clientY - g.startY) < DRAG_THRESHOLD) return;
    if (!g.dragged) {
      g.dragged = true;
      this.grab.hidden = false;
    }
    this.panBy(event.clientX - previous.x, event.clientY - previous.y);
  }

  onPointerUp(event) {
    if (!this.pointers.delete(event.pointerId)) return;
    const g = this.gesture;
    if (this.pointers.size > 0) {
      // One finger of a pinch lifted: carry on panning with the other.
      if (g) g.pinch = null;
      return;
    }
    this.grab.hidden = true;
    this.gesture = null;
    if (event.type === "pointerup" && g && !g.dragged && g.node && this.clickable) this.choose(g.node);
  }

  onKey(event) {
    if (!this.view || !this.clickable || event.altKey || event.ctrlKey || event.metaKey) return;
    const from = this.nodes.get(this.cursorKey) || this.rootNode;
    if (!from) return;
    const siblings = from.parent ? from.parent.children : [from];
    const index = siblings.indexOf(from);
    const onPath = from.children.find((c) => this.selectedKeys.includes(pathKey(c.path)));
    const moves = {
      parent: from.parent,
      child: onPath || from.children[0], // down the selected path when it passes here
      previous: siblings[index - 1],
      next: siblings[index + 1],
    };
    const keys = this.leftToRight
      ? { ArrowLeft: "parent", ArrowRight: "child", ArrowUp: "previous", ArrowDown: "next" }
      : { ArrowUp: "parent", ArrowDown: "child", ArrowLeft: "previous", ArrowRight: "next" };
    let target;
    if (event.key in keys) target = moves[keys[event.key]];
    else if (event.key === "Home") target = this.rootNode;
    else return;
    event.preventDefault(); // arrows would otherwise scroll the page
    if (!target) return;
    this.choose(target.path);
    this.reveal(pathKey(target.path));
  }

  // Outline the node at once (Python's rerun confirms it) and tell Python.
  choose(path) {
    this.cursorKey = pathKey(path);
    this.applyHighlight();
    this.setTriggerValue("clicked", path);
  }

  moveTip(event) {
    const el = event.target.closest?.("g.node[data-tip]");
    if (!el) {
      this.hideTip();
      return;
    }
    if (this.tipFor !== el) {
      this.tipFor = el;
      this.tip.textContent = this.tipText(el);
      this.tip.hidden = false;
    }
    const rect = this.viewport.getBoundingClientRect();
    // Below-right of the cursor, flipped when it would leave the viewport.
    let x = event.clientX - rect.left + 14, y = event.clientY - rect.top + 18;
    if (x + this.tip.offsetWidth > rect.width) x = Math.max(0, x - this.tip.offsetWidth - 28);
    if (y + this.tip.offsetHeight > rect.height) y = Math.max(0, y - this.tip.offsetHeight - 36);
    this.tip.style.transform = `translate(${x}px, ${y}px)`;
  }

  // Text, never markup: moves are user text. While C is dragged the value is the node's line at
  // that C (the committed text has its rank too, which needs siblings that are not drawn).
  tipText(el) {
    const key = el.getAttribute("data-path");
    let extra = this.values[key];
    const line = this.liveC !== null && this.lines ? this.lines[key] : undefined;
    if (line) {
      const [a, b] = line.map(Number); // "Infinity"/"NaN" arrive as strings
      const value = b === 0 ? a : a + b * this.liveC;
      extra = `${this.valueLabel} ${Number(value.toPrecision(6))} at C = ${Number(this.liveC.toPrecision(6))}`;
    }
    return el.getAttribute("data-tip") + (extra ? `\n${extra}` : "");
  }

  hideTip() {
    this.tipFor = null;
    this.tip.hidden = true;
  }

  showStatus(text) {
    this.status.textContent = text;
    this.status.hidden = !text;
  }

  destroy() {
    this.listeners.abort();
    this.resizeObserver.disconnect();
    this.pageObserver.disconnect();
    if (this.frame) cancelAnimationFrame(this.frame);
  }
}

function svgElement(name, attributes) {
  const el = document.createElementNS(SVG_NS, name);
  for (const [attribute, value] of Object.entries(attributes)) el.setAttribute(attribute, value);
  return el;
}

// The JSON before the first line break, with the SVG after it (if any) as `svg`: the SVG's
// quotes never pass through JSON.
function readPayload(bytes) {
  const decoder = new TextDecoder();
  const cut = bytes.indexOf(10);
  const data = JSON.parse(decoder.decode(cut < 0 ? bytes : bytes.subarray(0, cut)));
  data.svg = cut < 0 ? null : decoder.decode(bytes.subarray(cut + 1));
  return data;
}

export default function (component) {
  const { parentElement, setTriggerValue } = component;
  const data = readPayload(component.data);
  let view = views.get(parentElement);
  if (!view) {
    view = new TreeView(parentElement);
    views.set(parentElement, view);
  }
  view.update(data, setTriggerValue);
  // Streamlit keeps only the cleanup returned by the latest call and runs it on
  // unmount (not between calls), so each call returns the full teardown.
  return () => {
    view.destroy();
    views.delete(parentElement);
  };
}
