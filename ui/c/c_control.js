// The exploration constant's slider for MCTS Explorer (Streamlit components v2, no iframe).
//
// The server sends, once per (input, rule, settings), where the selected path changes over the
// slider's range; while the slider moves, everything C decides in the browser follows it on every
// animation frame with no server round trip, and C is committed (one trigger) only when the drag
// ends or the keys rest. Keys move C by data.key_step (ten of them with Page Up/Down or Shift+arrow;
// Home/End to the ends), on that step's grid, so C stays round; a drag keeps the finer data.step.
//
// data = {
//   c:         the committed C,
//   max, step: the slider's range [0, max] and its step (a drag's resolution),
//   key_step:  how far an arrow key moves C (mcts_core.analysis.key_step: 1/100 of the range),
//   label:     the rule's name for C (c_puct, ...),
//   path_label: what the live line calls the path (Selected path, Path B, ...),
//   intervals: [[c_from, c_to, moves], ...] covering [0, max) in order, the path constant on each
//              half-open interval (mcts_core.analysis.drag_payload),
//   compact:   moves are single characters written together ("ab"), else joined by spaces,
//   role:      which path of a tree picture this C moves: "selected" (or "second": Compare's B),
//   reveal_at_rest: false: the live line (path, ranked children) and the ticks where the path
//              changes show only while C moves (Classroom: at rest they would give the answer away),
//   exact:     a selector of the box holding this control's C exactly (Exact C), or absent:
//              while C moves it shows the live C as Python writes it (the commit's rerun then
//              writes the same text; a drag that ends where it started puts the box's text back),
//   exact_digits: null: that box is a text box (Python's repr); n: a number box ("%.ng"),
// }
// What only a commit of a control's C updates sits in the page's keyed containers whose key starts
// with AT_COMMITTED_C, then the control's role or "any" (c_control.py's at_committed_c: the one
// protocol between this script and the page's own elements). While the control's C moves and until
// the server has every C it committed, <html> carries data-c-waiting-<role>, which dims them by a
// rule added once per role.
// Events: trigger "commit" (the C to commit). Window event "mcts-c-drag" with
// detail {c, path, role}: a tree picture (tree_view.js), the sweep's charts (live_c_marker.js) and
// the texts that follow C (live_text.js: the path, its length, "C = x", Compare's verdict) follow C
// with it; {done: true, role} once the server has every committed C, or the drag or keys
// ended at the server's C (the page's data is current again). The tree picture
// (drawn after the page knows its inspected node) sends window event "mcts-inspected" with
// detail {path, chance, random, value_label, children: [{move, value: [intercept, slope]}]} or
// null: the children this control ranks by their value as C moves.

const controls = new WeakMap(); // parentElement -> CControl
const live = new Set(); // every mounted control, for the inspected node's children
let inspectedNow = null; // the latest "mcts-inspected" detail (it may come before a control mounts)
window.addEventListener("mcts-inspected", (event) => {
  inspectedNow = event.detail;
  for (const control of live) control.showChildren(control.c, control.pathAt(control.c));
});
const AT_COMMITTED_C = "at_committed_c"; // c_control.py's AT_COMMITTED_C: the prefix of those containers' keys
const WAITING = (role) => `data-c-waiting-${role}`;
const KEYS_REST_MS = 150; // keys that rest this long commit; faster presses keep moving C locally
const BIG_STEP = 10; // Page Up/Down and Shift+arrow move C by this many key steps
// Keys that move C, and by how many key steps (Home and End go to the ends).
const KEY_MOVES = { ArrowRight: 1, ArrowUp: 1, ArrowLeft: -1, ArrowDown: -1, PageUp: BIG_STEP, PageDown: -BIG_STEP };
const DRAG_EVENT = "mcts-c-drag";

const number = (x) => (typeof x === "number" ? x : Number(x)); // "Infinity"/"NaN" from the payload
const shown = (c) => String(Number(c.toPrecision(6)));
// C as the exact box writes it (c_control.exact_text): the shortest digits that read back as c, a
// whole number without ".0". (The slider's Cs are far from where Python and JS write exponents.)
const exactText = (c) => String(c);

// The next multiple of ``step`` past ``c`` in ``direction`` (+1 or -1), as its decimal: from a
// C between two multiples (a typed 2.70292), a key goes to the round value that way first.
function nextOnGrid(c, step, direction) {
  const units = c / step;
  const k = direction > 0 ? Math.floor(units + 1e-9) + 1 : Math.ceil(units - 1e-9) - 1;
  return Number((k * step).toPrecision(12));
}

class CControl {
  constructor(parentElement) {
    inspectedNow = null; // a new page: its tree picture says again what it inspects
    this.root = parentElement.querySelector(".cc-root");
    this.input = this.root.querySelector("input[type=range]");
    this.name = this.root.querySelector(".cc-name");
    this.value = this.root.querySelector(".cc-value");
    this.marks = this.root.querySelector(".cc-marks");
    this.pathText = this.root.querySelector(".cc-path");
    this.children = this.root.querySelector(".cc-children");
    this.liveLine = this.root.querySelector(".cc-live");
    this.pointerDown = false;
    this.restTimer = 0;
    this.frame = 0;
    this.lastServerC = null;
    this.sent = new Set(); // Cs committed whose rerun may still arrive: their echo must not move the thumb
    this.listeners = new AbortController();
    const opts = { signal: this.listeners.signal };
    this.input.addEventListener("input", () => this.moved(), opts);
    this.input.addEventListener("keydown", (event) => this.pressed(event), opts);
    this.input.addEventListener("pointerdown", () => (this.pointerDown = true), opts);
    // The drag ends on release wherever the pointer is (change also fires then, but not when the
    // thumb ends where it started).
    window.addEventListener("pointerup", () => this.released(), opts);
    window.addEventListener("pointercancel", () => this.released(), opts);
  }

  update(data, setTriggerValue) {
    this.setTriggerValue = setTriggerValue;
    this.data = data;
    this.intervals = data.intervals.map(([from, to, moves]) => [number(from), number(to), moves]);
    this.name.textContent = data.label;
    this.root.querySelector(".cc-path-label").textContent = data.path_label;
    // Only what changed: re-setting the range snaps the value, which must not happen mid-drag. The
    // key step rides along as data-key-step (for scripts that press keys, e.g. bench/).
    const range = { min: "0", max: String(data.max), step: String(data.step), "data-key-step": String(data.key_step), "aria-label": data.label };
    for (const [name, value] of Object.entries(range)) {
      if (this.rangeSet?.[name] !== value) this.input.setAttribute(name, value);
    }
    this.rangeSet = range;
    this.drawMarks();
    const c = number(data.c);
    if (this.sent.has(c)) {
      // Our own commit's rerun: the thumb stays where the user has it; the latest one settles it.
      if (c === this.lastSent) this.sent.clear();
    } else if (c !== this.lastServerC && !this.busy()) {
      // Set elsewhere (the exact box, a preset, a new input): the thumb goes there.
      this.sent.clear();
      this.c = c;
      this.input.value = String(c);
    }
    this.lastServerC = c;
    if (this.c === undefined) this.c = c;
    // Mid-drag, new intervals (Playback's next frame) may hold another path at the thumb's C: the
    // picture follows them, not the path the last mouse move announced.
    this.show(this.c, this.busy());
    // The server has every C this control committed: the picture may take its paths from Python again.
    if (!this.busy() && this.sent.size === 0) this.settled();
  }

  // The page is at this control's C again: followers take their data from the server, nothing is dimmed.
  settled() {
    this.exactBefore = undefined; // the box has the server's text again
    document.documentElement.removeAttribute(WAITING(this.data.role));
    this.announce({ done: true, role: this.data.role });
  }

  announce(detail) {
    window.dispatchEvent(new CustomEvent(DRAG_EVENT, { detail }));
  }

  // A drag or keys still going on: the server's C is older than the thumb's.
  busy() {
    return this.pointerDown || this.restTimer !== 0;
  }

  drawMarks() {
    const max = Number(this.data.max);
    const key = JSON.stringify([max, this.intervals.map((part) => part[0])]);
    if (key === this.marksKey) return;
    this.marksKey = key;
    this.marks.replaceChildren();
    for (const [from, , moves] of this.intervals.slice(1)) {
      if (!(from > 0 && from < max)) continue;
      const tick = document.createElement("span");
      tick.className = "cc-mark";
      tick.style.setProperty("--at", String(from / max));
      tick.title = `From C = ${shown(from)}: ${this.pathWords(moves)}`;
      this.marks.append(tick);
    }
  }

  pathWords(moves) {
    return moves.length ? moves.join(this.data.compact ? "" : " ") : "(root is a leaf)";
  }

  // The interval holding c (a breakpoint already has the new path); past the end, the last.
  pathAt(c) {
    const parts = this.intervals;
    let lo = 0, hi = parts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (parts[mid][0] <= c) lo = mid;
      else hi = mid - 1;
    }
    return parts[lo][2];
  }

  moved() {
    this.c = Number(this.input.value);
    if (!this.pointerDown) {
      // Keys: commit once they rest (each press already moved C here, so none is lost).
      clearTimeout(this.restTimer);
      this.restTimer = setTimeout(() => this.commit(), KEYS_REST_MS);
    }
    if (!this.frame) {
      this.frame = requestAnimationFrame(() => {
        this.frame = 0;
        this.show(this.c, true);
      });
    }
  }

  // A key that moves C (KEY_MOVES, Home, End): one move per press (a held key repeats), committed
  // once the keys rest. Other keys, and shortcuts with Ctrl, Alt or Meta, stay the browser's.
  pressed(event) {
    if (event.ctrlKey || event.altKey || event.metaKey || this.pointerDown) return;
    const max = number(this.data.max);
    let target;
    if (event.key === "Home") target = 0;
    else if (event.key === "End") target = max;
    else if (event.key in KEY_MOVES) {
      let moves = KEY_MOVES[event.key];
      if (event.shiftKey && Math.abs(moves) === 1) moves *= BIG_STEP;
      // As many presses of an arrow: the first to the grid, the others a whole step each.
      const step = number(this.data.key_step), direction = Math.sign(moves);
      const moved = nextOnGrid(this.c, step, direction) + (moves - direction) * step;
      target = Math.min(Math.max(Number(moved.toPrecision(12)), 0), max);
    } else return;
    event.preventDefault();
    if (target === this.c) return; // at an end already: nothing moves, nothing is committed
    this.input.value = String(target);
    this.moved();
  }

  released() {
    if (!this.pointerDown) return;
    this.pointerDown = false;
    this.commit();
  }

  commit() {
    clearTimeout(this.restTimer);
    this.restTimer = 0;
    if (this.c === this.lastServerC && this.sent.size === 0) {
      // Back where the server is: no rerun will say so, so the followers hear it here.
      this.restoreExact();
      this.settled();
      return;
    }
    this.sent.add(this.c);
    this.lastSent = this.c;
    this.setTriggerValue("commit", this.c);
  }

  // Everything C decides here, and the event that lets the tree picture follow.
  show(c, live) {
    this.value.textContent = shown(c);
    const hidden = !live && this.data.reveal_at_rest === false;
    this.liveLine.classList.toggle("cc-at-rest", hidden);
    this.marks.classList.toggle("cc-at-rest", hidden);
    const path = this.pathAt(c);
    const words = this.pathWords(path);
    if (words !== this.pathText.textContent) this.pathText.textContent = words;
    this.root.setAttribute("data-path", JSON.stringify(path));
    this.path = path;
    this.showChildren(c, path);
    if (live) {
      dimCommitted(this.data.role);
      this.showExact(c);
      this.announce({ c, path, role: this.data.role });
    }
  }

  // The exact box shows c. Its value is set as a program would, with no input event: nothing is
  // sent, and React's rerun with the committed text finds the same text there.
  showExact(c) {
    const box = this.exactBox();
    if (!box) return;
    if (this.exactBefore === undefined) this.exactBefore = box.value;
    const digits = this.data.exact_digits;
    const text = digits ? String(Number(c.toPrecision(digits))) : exactText(c);
    if (box.value !== text) box.value = text;
  }

  // C moved and came back with nothing committed: the box gets the text it had (the server's).
  restoreExact() {
    const box = this.exactBox();
    if (box && this.exactBefore !== undefined) box.value = this.exactBefore;
  }

  // The page's exact box for this C, unless the user is in it (their typing stays theirs).
  exactBox() {
    const box = this.data.exact ? document.querySelector(this.data.exact) : null;
    return box === document.activeElement ? null : box;
  }

  // The inspected node's children ranked by their value at c; the path's child (from the
  // intervals, not from these floats) is marked as the winner.
  showChildren(c, path) {
    const inspected = this.data?.role === "selected" ? inspectedNow : null;
    this.children.hidden = !inspected || !inspected.children.length;
    if (this.children.hidden) return;
    const title = document.createElement("span");
    title.className = "cc-children-title";
    const where = inspected.path.length ? this.pathWords(inspected.path) : "the root";
    if (inspected.chance) {
      title.textContent = `${where} is a chance node: the path follows its most visited outcome.`;
      this.children.replaceChildren(title);
      return;
    }
    title.textContent = `${inspected.value_label} of ${where}'s children:`;
    const depth = inspected.path.length;
    const onPath = inspected.path.every((move, i) => path[i] === move);
    // Off the path, the top of the ranking (a near-tie may rank otherwise in the rule's floats).
    let winner = onPath ? path[depth] : undefined;
    const rows = inspected.children.map((kid, order) => {
      const [a, b] = kid.value.map(number);
      // 0 * Infinity is NaN: a slope of 0 leaves the intercept as it is.
      return { move: kid.move, value: b === 0 ? a : a + b * c, order };
    });
    const key = (v) => (Number.isNaN(v) ? -Infinity : v);
    rows.sort((x, y) => key(y.value) - key(x.value) || x.order - y.order);
    if (!onPath && !inspected.random) winner = rows[0].move;
    const list = document.createElement("ol");
    for (const row of rows.slice(0, 8)) {
      const item = document.createElement("li");
      if (row.move === winner) item.className = "cc-winner";
      const move = document.createElement("code");
      move.textContent = row.move; // text, never markup: moves are user text
      item.append(move, ` ${shown(row.value)}`);
      list.append(item);
    }
    this.children.replaceChildren(title, list);
  }

  destroy() {
    if (this.data) document.documentElement.removeAttribute(WAITING(this.data.role));
    this.listeners.abort();
    clearTimeout(this.restTimer);
    if (this.frame) cancelAnimationFrame(this.frame);
  }
}

// The page's parts that only a commit of ``role``'s C updates (the containers keyed AT_COMMITTED_C
// + role or "any") are dimmed until that commit has run (the rule once per role and document; the
// attribute once per drag).
function dimCommitted(role) {
  const html = document.documentElement;
  if (html.hasAttribute(WAITING(role))) return;
  const id = `mcts-c-waiting-style-${role}`;
  if (!document.getElementById(id)) {
    const style = document.createElement("style");
    style.id = id;
    const committed = [role, "any"].map((whose) => `[class*="st-key-${AT_COMMITTED_C}_${whose}_"]`).join(", ");
    style.textContent = `html[${WAITING(role)}] :is(${committed}) { opacity: 0.4; transition: opacity 0.1s; }`;
    document.head.append(style);
  }
  html.setAttribute(WAITING(role), "");
}

export default function (component) {
  const { data, parentElement, setTriggerValue } = component;
  let control = controls.get(parentElement);
  if (!control) {
    control = new CControl(parentElement);
    controls.set(parentElement, control);
    live.add(control);
  }
  control.update(data, setTriggerValue);
  return () => {
    control.destroy();
    controls.delete(parentElement);
    live.delete(control);
  };
}
