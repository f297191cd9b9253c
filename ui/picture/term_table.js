// A node's children with their terms for MCTS Explorer (Streamlit components v2, no iframe): a plain
// table, best first, the child selection picks in the path's red. A header click (or Enter on it)
// sorts the rows by that column (again: the other way); a row click inspects that child (trigger
// "inspect").
// Moves and headers are user text: they only ever go into textContent and title.
//
// data = {
//   label:   what the table is (its aria-label),
//   columns: [{name, label, help, kind}]: kind "text", "number" (right-aligned) or "flag" (a mark, centred),
//   rows:    [{key, cells, values, selected}], best first: key is the child's path as JSON, cells
//            the texts shown, values what a sort compares (numbers, "Infinity", "-Infinity", "NaN"
//            or null for a blank; 1 or 0 for a flag; text for a text column).
// }

// parentElement -> {data, setTriggerValue, sort: {name, descending} or null (best first)}; a sort names
// its column, so it stays on that column (or ends) when another node or rule has other columns.
const states = new WeakMap();

const number = (x) => (typeof x === "number" ? x : Number(x));

function ordered(rows, columns, sort) {
  if (!sort) return rows;
  const sign = sort.descending ? -1 : 1;
  const text = columns[sort.column].kind === "text";
  const value = (row) => (text ? row.values[sort.column] : number(row.values[sort.column]));
  const missing = (v) => v === null || (typeof v === "number" && Number.isNaN(v));
  return [...rows].sort((a, b) => {
    const x = value(a), y = value(b);
    if (missing(x) || missing(y)) return missing(x) - missing(y); // blanks last either way
    return x < y ? -sign : x > y ? sign : 0;
  });
}

function render(parentElement, state) {
  const { data } = state;
  const sortedBy = state.sort ? data.columns.findIndex((column) => column.name === state.sort.name) : -1;
  const sort = sortedBy < 0 ? null : { column: sortedBy, descending: state.sort.descending };
  const table = parentElement.querySelector(".tt-table");
  table.setAttribute("aria-label", data.label);
  const head = document.createElement("tr");
  data.columns.forEach((column, index) => {
    const th = document.createElement("th");
    th.dataset.column = String(index);
    th.textContent = column.label + (sort?.column === index ? (sort.descending ? " ▼" : " ▲") : "");
    th.title = (column.help ? `${column.help}\n` : "") + "Click: sort by this column (again: the other way).";
    th.setAttribute("aria-sort", sort?.column === index ? (sort.descending ? "descending" : "ascending") : "none");
    th.tabIndex = 0; // Enter or Space sorts, as a click does
    if (column.kind !== "text") th.className = `tt-${column.kind}`;
    head.appendChild(th);
  });
  const body = document.createElement("tbody");
  for (const row of ordered(data.rows, data.columns, sort)) {
    const tr = document.createElement("tr");
    tr.dataset.key = row.key;
    tr.title = "Click: inspect this child";
    if (row.selected) tr.className = "tt-selected";
    row.cells.forEach((text, index) => {
      const td = document.createElement("td");
      td.textContent = text;
      if (data.columns[index].kind !== "text") td.className = `tt-${data.columns[index].kind}`;
      tr.appendChild(td);
    });
    body.appendChild(tr);
  }
  const thead = document.createElement("thead");
  thead.appendChild(head);
  table.replaceChildren(thead, body);
}

function onKey(parentElement, event) {
  if ((event.key === "Enter" || event.key === " ") && event.target.closest("th")) {
    event.preventDefault(); // Space would scroll the page
    onClick(parentElement, event);
  }
}

function onClick(parentElement, event) {
  const state = states.get(parentElement);
  const th = event.target.closest("th");
  if (th) {
    const column = Number(th.dataset.column);
    const { name, kind } = state.data.columns[column];
    const { sort } = state;
    state.sort = sort?.name === name ? { name, descending: !sort.descending } : { name, descending: kind !== "text" };
    render(parentElement, state);
    // The header was drawn anew: keys keep working on it.
    if (event.type === "keydown") parentElement.querySelector(`th[data-column="${column}"]`).focus();
    return;
  }
  const tr = event.target.closest("tr[data-key]");
  if (tr) state.setTriggerValue("inspect", tr.dataset.key);
}

export default function (component) {
  const { data, parentElement, setTriggerValue } = component;
  let state = states.get(parentElement);
  if (!state) {
    state = { sort: null };
    states.set(parentElement, state);
    const table = parentElement.querySelector(".tt-table");
    table.addEventListener("click", (event) => onClick(parentElement, event));
    table.addEventListener("keydown", (event) => onKey(parentElement, event));
  }
  state.data = data;
  state.setTriggerValue = setTriggerValue;
  render(parentElement, state);
  return () => states.delete(parentElement);
}
