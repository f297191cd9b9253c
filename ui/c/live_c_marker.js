// The C sweep page's live C marker (Streamlit components v2, no iframe, nothing loaded from the network).
//
// While the C control (c_control.js) is dragged it sends the window event "mcts-c-drag" with
// detail {c, path, role} on every animation frame, and {done: true, role} once the server has
// every committed C. Here a red line with the live C's value follows each frame over each chart
// (Vega draws them as SVG), and the chart's own red rule at the committed C is hidden meanwhile;
// once done, the line stays until the chart has drawn its rule there (the rerun's charts come a
// moment after the control hears the server), then the charts show their own rule again.
// Nothing goes to the server from here.
//
// data = {
//   c_from, c_to: the charts' C axis (linear, not niced: [c_from, c_to] spans the plot's width),
//   charts:       class names of the keyed containers holding the charts (st-key-...),
//   value_below:  those of them whose line has its value under the plot (clear of the chart's text),
//   rule:         the class of the committed C's rule mark group in each chart's SVG,
//   role:         whose drag to follow ("selected": the page's C),
//   colour:       the line's colour (the committed rule's),
// }

const DRAG_EVENT = "mcts-c-drag"; // c_control.js
const MARKER = "mcts-live-c"; // the line's class, in the page's document beside each chart
const SETTLE_MS = 3000; // after done, the longest wait for a chart to draw its rule at the live C
const SETTLED_PX = 1.5; // the chart's rule is "there" this close to the line

const shown = (c) => String(Number(c.toPrecision(6)));

// The plot area of a Vega SVG (its root group's background): origin and size in client pixels.
function plotArea(svg) {
  const background = svg?.querySelector(".role-frame.root > g > path.background");
  const matrix = background?.getScreenCTM();
  if (!matrix) return null;
  const box = background.getBBox();
  return { left: matrix.e + matrix.a * box.x, top: matrix.f + matrix.d * box.y, width: matrix.a * box.width, height: matrix.d * box.height };
}

function makeLine(colour) {
  const line = document.createElement("div");
  line.className = MARKER;
  // Inline styles: the component's stylesheet stays in its shadow root and cannot reach here.
  line.style.cssText =
    "position:absolute;left:0;top:0;width:2px;margin-left:-1px;pointer-events:none;z-index:2;" +
    `background:${colour};`;
  const label = document.createElement("span");
  label.style.cssText =
    "position:absolute;padding:0 4px;border-radius:3px;white-space:nowrap;color:#fff;" +
    `background:${colour};font-size:12px;line-height:16px;font-weight:600;font-variant-numeric:tabular-nums;`;
  line.append(label);
  return line;
}

class LiveMarker {
  constructor() {
    this.c = null; // the dragged C, null: no drag shown
    this.settling = 0; // after done: until when (ms) to wait for the charts' own rules
    this.frame = 0;
    this.listeners = new AbortController();
    window.addEventListener(DRAG_EVENT, (event) => this.follow(event.detail), { signal: this.listeners.signal });
    window.addEventListener("resize", () => this.c !== null && this.place(), { signal: this.listeners.signal });
  }

  update(data) {
    this.data = data;
    if (this.c !== null) this.place(); // the rerun after release: its charts may sit elsewhere
  }

  follow({ c, role, done }) {
    if (!this.data || role !== this.data.role) return;
    if (done) {
      if (this.c !== null && !this.settling) {
        this.settling = performance.now() + SETTLE_MS;
        this.settle();
      }
      return;
    }
    this.settling = 0;
    this.c = c;
    this.place();
  }

  boxes() {
    return this.data.charts.map((name) => document.querySelector(`.${CSS.escape(name)}`)).filter(Boolean);
  }

  place() {
    for (const box of this.boxes()) this.placeOn(box);
  }

  // The line at this.c over one chart: hidden outside [c_from, c_to] (the page's zoom range).
  placeOn(box) {
    const svg = box.querySelector("svg.marks");
    const rule = svg?.querySelector(`g.${CSS.escape(this.data.rule)}`);
    if (rule) rule.style.visibility = "hidden";
    let line = box.querySelector(`:scope > .${MARKER}`);
    const plot = plotArea(svg);
    const share = (this.c - this.data.c_from) / (this.data.c_to - this.data.c_from);
    if (!plot || !(share >= 0 && share <= 1)) {
      if (line) line.hidden = true;
      return;
    }
    if (!line) {
      line = makeLine(this.data.colour);
      if (getComputedStyle(box).position === "static") box.style.position = "relative";
      box.append(line);
    }
    const origin = box.getBoundingClientRect();
    const x = plot.left + share * plot.width - origin.left;
    line.hidden = false;
    line.style.transform = `translate(${x}px, ${plot.top - origin.top}px)`;
    line.style.height = `${plot.height}px`;
    const label = line.firstChild;
    const text = `C = ${shown(this.c)}`;
    if (label.textContent !== text) label.textContent = text; // text, never markup
    // At the top of the plot, or under it (a band strip's labels sit in its middle); right of the
    // line, or left of it near the plot's right end.
    const below = this.data.value_below.some((name) => box.classList.contains(name));
    label.style.top = below ? "calc(100% + 2px)" : "2px";
    const right = share > 0.85;
    label.style.left = right ? "" : "5px";
    label.style.right = right ? "5px" : "";
  }

  // After done: each frame, wait until every chart's rule is drawn at the line (or is gone).
  settle() {
    if (!this.settling) return;
    const ready = this.boxes().every((box) => {
      const line = box.querySelector(`:scope > .${MARKER}`);
      const drawn = box.querySelector(`svg.marks g.${CSS.escape(this.data.rule)} line`);
      if (!line || line.hidden || !drawn) return true;
      const at = line.getBoundingClientRect();
      const rule = drawn.getBoundingClientRect();
      return Math.abs(at.left + at.width / 2 - (rule.left + rule.width / 2)) <= SETTLED_PX;
    });
    if (ready || performance.now() > this.settling) this.clear();
    else this.frame = requestAnimationFrame(() => this.settle());
  }

  clear() {
    this.c = null;
    this.settling = 0;
    cancelAnimationFrame(this.frame);
    if (!this.data) return;
    for (const box of this.boxes()) {
      box.querySelector(`:scope > .${MARKER}`)?.remove();
      const rule = box.querySelector(`svg.marks g.${CSS.escape(this.data.rule)}`);
      if (rule) rule.style.visibility = "";
    }
  }

  destroy() {
    this.clear();
    this.listeners.abort();
  }
}

const markers = new WeakMap(); // parentElement -> LiveMarker

export default function (component) {
  const { data, parentElement } = component;
  let marker = markers.get(parentElement);
  if (!marker) {
    marker = new LiveMarker();
    markers.set(parentElement, marker);
  }
  marker.update(data);
  return () => {
    marker.destroy();
    markers.delete(parentElement);
  };
}
