// A text that follows a drag of C (Streamlit components v2, no iframe, nothing loaded from the
// network, nothing sent back): it owns its own DOM and rewrites only that (ui/c/live_text.py).
//
// data = {
//   look:      "caption", "text" or "metric" (then label and help),
//   highlight: "red": the text on a red background, or null,
//   shapes:    {name: {parts: [[style ("", "code", "strong"), text at rest, slot or null], ...],
//                      box: "success", "info" or null}},
//   shape:     the shape shown at rest,
//   paths:     {role: moves} at rest, for the roles whose paths the slots name,
//   cs:        {role: C} at rest,
//   compact:   moves are single characters written together, else joined by spaces,
// }
// Slots: "c:<role>" (C = x), "path:<role>" (the path in words), "length:<role>" (its moves),
// "verdict" (identical / split at X), "split" (the node where the paths of "selected" and "second"
// part, in words), "move:<role>" (that role's move there). A text with several shapes shows the
// dragged verdict's shape ("identical", "split_root", "split").
//
// Window event "mcts-c-drag" (c_control.js): {c, path, role} on every frame of a drag, {done: true,
// role} once the server has every C the control committed (or the drag ended where it started).
// A role's live state goes once the drag is done and the data at rest is at its C.

const DRAG_EVENT = "mcts-c-drag"; // c_control.js
const NO_PATH = "(root is a leaf)"; // live_text.py's NO_PATH

const number = (x) => (typeof x === "number" ? x : Number(x)); // "Infinity"/"NaN" from the payload
const shown = (c) => String(Number(c.toPrecision(6))); // c_control.js writes C the same way

// Where two paths (moves, root first) part, as mcts_core.analysis.compare_paths says it: identical,
// or split at the deepest node both contain (the root, or another node), each side's move there.
function verdictOf(pathA, pathB) {
  let shared = 0;
  while (shared < pathA.length && shared < pathB.length && pathA[shared] === pathB[shared]) shared++;
  if (shared === pathA.length && shared === pathB.length) return { shape: "identical" };
  const split = pathA.slice(0, shared);
  return { shape: shared ? "split" : "split_root", split, a: pathA[shared], b: pathB[shared] };
}

class LiveText {
  constructor(parentElement) {
    this.root = parentElement.querySelector(".lt-root");
    this.live = new Map(); // role -> {c, path, moving}: the dragged C and its path
    this.listeners = new AbortController();
    window.addEventListener(DRAG_EVENT, (event) => this.follow(event.detail), { signal: this.listeners.signal });
  }

  update(data) {
    this.data = data;
    this.settle();
    this.draw();
  }

  follow({ c, path, role, done }) {
    if (!this.data || !(role in this.data.cs)) return;
    if (done) {
      const state = this.live.get(role);
      if (state) state.moving = false;
      this.settle();
    } else {
      this.live.set(role, { c, path, moving: true });
    }
    this.draw();
  }

  // A drag that is over, with the data at rest at its C: the text Python sent is current again.
  settle() {
    for (const [role, state] of this.live) {
      if (!state.moving && number(this.data.cs[role]) === state.c) this.live.delete(role);
    }
  }

  words(moves) {
    return moves.length ? moves.join(this.data.compact ? "" : " ") : NO_PATH;
  }

  // What each slot says now: the live state of a dragged role, the data at rest for the others.
  slots() {
    const c = (role) => this.live.get(role)?.c ?? number(this.data.cs[role]);
    const path = (role) => this.live.get(role)?.path ?? this.data.paths[role] ?? [];
    const values = {};
    for (const role of Object.keys(this.data.cs)) {
      values[`c:${role}`] = `C = ${shown(c(role))}`;
      values[`path:${role}`] = this.words(path(role));
      values[`length:${role}`] = String(path(role).length);
    }
    if ("selected" in this.data.paths && "second" in this.data.paths) {
      const verdict = verdictOf(path("selected"), path("second"));
      const node = verdict.shape === "split" ? this.words(verdict.split) : "root";
      values.shape = verdict.shape;
      values.verdict = verdict.shape === "identical" ? "identical" : `split at ${node}`;
      values.split = node;
      values["move:selected"] = verdict.a ?? "";
      values["move:second"] = verdict.b ?? "";
    }
    return values;
  }

  draw() {
    const data = this.data;
    const values = this.live.size ? this.slots() : null;
    const names = Object.keys(data.shapes);
    const shape = values && names.length > 1 ? values.shape : data.shape;
    const { parts, box } = data.shapes[shape] ?? data.shapes[data.shape];
    // The elements are made again only when the frame or the parts' styles change (another shape).
    const key = JSON.stringify([data.look, data.label, data.help, data.highlight, box, parts.map((part) => part[0])]);
    if (key !== this.frameKey) this.build(key, box, parts);
    parts.forEach(([, text, slot], i) => {
      const value = values && slot ? values[slot] ?? text : text;
      if (this.partNodes[i].textContent !== value) this.partNodes[i].textContent = value; // text, never markup
    });
  }

  // The elements: a metric's label and value, or a paragraph (in a box for a verdict's sentence).
  build(key, box, parts) {
    const data = this.data;
    this.frameKey = key;
    const body = document.createElement("div");
    this.partNodes = parts.map(([style]) => document.createElement(style || "span"));
    if (data.look === "metric") {
      // Streamlit's test ids, as its metric has them: scripts that read a metric read this one too.
      body.className = "lt-metric";
      body.dataset.testid = "stMetric";
      const label = document.createElement("div");
      label.className = "lt-label";
      label.dataset.testid = "stMetricLabel";
      label.textContent = data.label ?? "";
      if (data.help) {
        // As Streamlit's metric: a "?" beside the label says there is help; hovering shows it.
        const help = document.createElement("span");
        help.className = "lt-help";
        help.textContent = "?";
        help.title = data.help; // text, never markup
        help.setAttribute("aria-label", data.help);
        label.append(help);
      }
      const value = document.createElement("div");
      value.className = "lt-value";
      value.dataset.testid = "stMetricValue";
      value.append(...this.partNodes);
      body.append(label, value);
    } else {
      body.className = `lt-${data.look}` + (box ? ` lt-box lt-${box}` : "");
      const line = document.createElement("p");
      if (data.highlight) line.className = `lt-highlight-${data.highlight}`;
      line.append(...this.partNodes);
      body.append(line);
    }
    this.root.replaceChildren(body);
  }

  destroy() {
    this.listeners.abort();
  }
}

const texts = new WeakMap(); // parentElement -> LiveText

export default function (component) {
  const { data, parentElement } = component;
  let text = texts.get(parentElement);
  if (!text) {
    text = new LiveText(parentElement);
    texts.set(parentElement, text);
  }
  text.update(data);
  return () => {
    text.destroy();
    texts.delete(parentElement);
  };
}
