// The tree outline for MCTS Explorer (Streamlit components v2): an indented, sortable list of nodes.
//
// Opening and closing a row happens here, in the browser, from the children lists Python sent
// (the open nodes' and one level more), so it takes a frame, not a server round trip; a row whose
// list was not sent asks for it (trigger "expand"). Clicking a row's move inspects its node
// (trigger "inspect"). Moves are user text: they only ever go into textContent.
//
// data = {
//   columns:   [[field, header, kind]] after the move column; kind: "int", "pct", "num", "text",
//   lists:     parent key -> its children rows, most visited first; a key is the node's path as JSON,
//   open:      keys Python opened (the selected path, the inspected node's line),
//   inspected: the inspected node's key,
// }
// row = {key, move, n (its children), and one value per column field}; a number may arrive as
// "Infinity", "-Infinity" or "NaN" (an unvisited child's value: JSON has no such numbers).
//
// The inspected node's row is scrolled into view whenever the inspected node changes (a jump, a click
// in the picture), inside the outline's box and, if need be, the page.

const states = new WeakMap(); // parentElement -> {opened, closed, sort, revealed}

const number = (x) => (typeof x === "number" ? x : Number(x));

function format(value, kind) {
  if (value === null || value === undefined) return "";
  if (kind === "text") return String(value);
  const x = number(value);
  if (Number.isNaN(x)) return "";
  if (!Number.isFinite(x)) return x > 0 ? "∞" : "−∞";
  if (kind === "int") return x.toLocaleString("en-US");
  if (kind === "pct") return `${(100 * x).toFixed(1)}%`;
  return x.toFixed(3); // "num": one number of decimals down a column, so they line up
}

function isOpen(state, key) {
  if (state.opened.has(key)) return true;
  return state.data.open.includes(key) && !state.closed.has(key);
}

function sorted(rows, sort, columns) {
  if (!sort) return rows;
  const sign = sort.descending ? -1 : 1;
  const text = sort.field === "move" || columns.some(([field, , kind]) => field === sort.field && kind === "text");
  const value = (row) => (sort.field === "move" ? row.move : text ? row[sort.field] : number(row[sort.field]));
  return [...rows].sort((a, b) => {
    const x = value(a), y = value(b);
    const missing = (v) => v === null || (typeof v === "number" && Number.isNaN(v));
    if (missing(x) || missing(y)) return missing(x) - missing(y); // blanks last either way
    return x < y ? -sign : x > y ? sign : 0;
  });
}

function cell(tr, text, className) {
  const td = document.createElement("td");
  td.textContent = text;
  if (className) td.className = className;
  tr.appendChild(td);
  return td;
}

function render(parentElement, state) {
  const { data } = state;
  const table = parentElement.querySelector(".ol-table");
  const head = document.createElement("tr");
  for (const [field, header] of [["move", "move"], ...data.columns]) {
    const th = document.createElement("th");
    th.dataset.field = field;
    const arrow = state.sort?.field === field ? (state.sort.descending ? " ▼" : " ▲") : "";
    th.textContent = header + arrow;
    th.title = "Sort each node's children by this column (again: reverse)";
    head.appendChild(th);
  }
  const body = document.createElement("tbody");
  const add = (parentKey, depth) => {
    for (const row of sorted(data.lists[parentKey] || [], state.sort, data.columns)) {
      const tr = document.createElement("tr");
      tr.dataset.key = row.key;
      if (row.key === data.inspected) tr.classList.add("ol-inspected");
      const open = row.n > 0 && isOpen(state, row.key);
      const first = cell(tr, "", "ol-move");
      first.style.paddingLeft = `${0.4 + 1.1 * depth}rem`;
      const toggle = document.createElement("button");
      toggle.type = "button";
      toggle.className = "ol-toggle";
      toggle.textContent = row.n > 0 ? (open ? "▾" : "▸") : "";
      toggle.disabled = row.n === 0;
      toggle.setAttribute("aria-label", open ? "Close" : "Open");
      first.appendChild(toggle);
      const name = document.createElement("span");
      name.className = "ol-name";
      name.textContent = row.move;
      first.appendChild(name);
      for (const [field, , kind] of data.columns) cell(tr, format(row[field], kind), kind === "text" ? "" : "ol-num");
      body.appendChild(tr);
      if (open) {
        if (data.lists[row.key]) add(row.key, depth + 1);
        else {
          const wait = document.createElement("tr");
          cell(wait, "…", "ol-wait").colSpan = data.columns.length + 1;
          body.appendChild(wait);
        }
      }
    }
  };
  add("[]", 0);
  const thead = document.createElement("thead");
  thead.appendChild(head);
  table.replaceChildren(thead, body);
}

// The inspected node's row in view, once per inspected node: centred in the box if it is outside the
// box's visible part, then the page scrolled as little as shows it.
function revealInspected(parentElement, state) {
  const key = state.data.inspected;
  const box = parentElement.querySelector(".tbl-box");
  if (state.revealed === key || !box.clientHeight) return; // not laid out yet: the next render tries again
  state.revealed = key;
  const row = [...box.querySelectorAll("tr[data-key]")].find((tr) => tr.dataset.key === key);
  if (!row) return; // the root has no row of its own
  const view = box.getBoundingClientRect();
  const header = box.querySelector("thead")?.getBoundingClientRect().height || 0;
  const place = row.getBoundingClientRect();
  if (place.top < view.top + header || place.bottom > view.bottom) {
    box.scrollTop += place.top - view.top - header - (view.height - header - place.height) / 2;
  }
  showInPage(row);
  keepShown(parentElement, state, key);
}

// Scrolls the page's scrolling ancestors (out of the component's shadow root too) as little as shows the
// element whole. The steps are whole pixels, rounded outwards: scrollTop rounds a fraction away, and a
// row 0.03 px below the edge stayed there.
function showInPage(element) {
  for (let node = parentOf(element); node; node = parentOf(node)) {
    if (!scrolls(node)) continue;
    const view = node.getBoundingClientRect(), place = element.getBoundingClientRect();
    if (place.bottom > view.bottom) node.scrollTop += Math.ceil(Math.min(place.bottom - view.bottom, place.top - view.top));
    else if (place.top < view.top) node.scrollTop -= Math.ceil(view.top - place.top);
  }
}

const parentOf = (node) => node.parentElement || node.getRootNode().host || null;
const scrolls = (node) => ["auto", "scroll"].includes(getComputedStyle(node).overflowY) && node.scrollHeight > node.clientHeight;
const USER_MOVES = ["wheel", "touchmove", "keydown", "pointerdown"];

// The page can still move after the reveal (the rest of the script run lays out the elements above), so
// the row is shown again whenever the page's content changes size, until the user moves anything.
function keepShown(parentElement, state, key) {
  state.stopKeeping?.();
  let page = parentOf(parentElement.querySelector(".tbl-box"));
  while (page && !scrolls(page)) page = parentOf(page);
  if (!page) return;
  const show = () => {
    const row = [...parentElement.querySelectorAll(".tbl-box tr[data-key]")].find((tr) => tr.dataset.key === key);
    if (row) showInPage(row);
  };
  const observer = new ResizeObserver(show);
  observer.observe(page.firstElementChild || page);
  const stop = () => {
    observer.disconnect();
    for (const type of USER_MOVES) window.removeEventListener(type, stop, true);
    state.stopKeeping = null;
  };
  for (const type of USER_MOVES) window.addEventListener(type, stop, true);
  state.stopKeeping = stop;
}

function onClick(parentElement, event) {
  const state = states.get(parentElement);
  const th = event.target.closest("th");
  if (th) {
    const field = th.dataset.field;
    state.sort = state.sort?.field === field ? { field, descending: !state.sort.descending } : { field, descending: field !== "move" };
    render(parentElement, state);
    return;
  }
  const tr = event.target.closest("tr[data-key]");
  if (!tr) return;
  const key = tr.dataset.key;
  if (event.target.closest(".ol-toggle")) {
    if (isOpen(state, key)) {
      state.opened.delete(key);
      state.closed.add(key);
    } else {
      state.closed.delete(key);
      state.opened.add(key);
      if (!state.data.lists[key]) state.setTriggerValue("expand", key);
    }
    render(parentElement, state);
    return;
  }
  state.setTriggerValue("inspect", key);
}

export default function (component) {
  const { data, parentElement, setTriggerValue } = component;
  let state = states.get(parentElement);
  if (!state) {
    state = { opened: new Set(), closed: new Set(), sort: null };
    states.set(parentElement, state);
    parentElement.querySelector(".ol-table").addEventListener("click", (event) => onClick(parentElement, event));
  }
  state.data = data;
  state.setTriggerValue = setTriggerValue;
  render(parentElement, state);
  revealInspected(parentElement, state);
  return () => {
    state.stopKeeping?.();
    states.delete(parentElement);
  };
}
