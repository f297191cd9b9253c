// The ids of the inputs this browser opened, newest first, kept in localStorage.
// Python sends the current input's id, which is added to the list. The list as it was when the
// page loaded goes back once, as the component's "ids" state (each state change reruns the app;
// Python keeps track of what it opens after that itself).
const STORAGE_KEY = "mcts-explorer-recent";
const ID = /^[0-9a-f]{64}$/;
let reported = false;

function readIds() {
  try {
    const stored = JSON.parse(window.localStorage.getItem(STORAGE_KEY) || "[]");
    return Array.isArray(stored) ? stored.filter((id) => typeof id === "string" && ID.test(id)) : [];
  } catch {
    return []; // storage blocked or garbled: start a new list
  }
}

export default function (component) {
  const { data, setStateValue } = component;
  const ids = readIds();
  if (!reported) {
    reported = true;
    if (ids.length) setStateValue("ids", ids);
  }
  const current = data && typeof data.current === "string" && ID.test(data.current) ? data.current : null;
  if (current && ids[0] !== current) {
    const updated = [current, ...ids.filter((id) => id !== current)].slice(0, data.limit || 10);
    try {
      window.localStorage.setItem(STORAGE_KEY, JSON.stringify(updated));
    } catch {
      // storage full or blocked: the list lives for this page only
    }
  }
}
