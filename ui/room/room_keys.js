// What this browser keeps for live rooms, in localStorage: the student's token (128 random bits,
// made here once) and the secrets of the last 20 rooms a teacher opened here. Python sends a secret
// to keep (its own session just opened that room); the browser reports the token and the secrets
// once per server session (Python's "session" changes when a reload or a server restart starts a
// new one), as the component's "keys" state, with whether the browser keeps what is stored (private
// modes and blocked site data refuse it: then a reload forgets the teacher's secrets). Nothing is
// shown, nothing goes over the network but that report.
const STUDENT_KEY = "mcts-explorer-student";
const ROOMS_KEY = "mcts-explorer-rooms";
const TOKEN = /^[0-9a-f]{32}$/;
const MOST_ROOMS = 20; // the secrets of the rooms opened last: older rooms have long expired
let memoryToken = null; // storage blocked: the token lives as long as the page
let reportedFor = null;

function read(key) {
  try {
    return JSON.parse(window.localStorage.getItem(key));
  } catch {
    return null;
  }
}

function write(key, value) {
  try {
    window.localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // storage full or blocked: kept for this page only
  }
}

function storageKept() {
  try {
    const probe = "mcts-explorer-probe";
    window.localStorage.setItem(probe, "1");
    window.localStorage.removeItem(probe);
    return true;
  } catch {
    return false;
  }
}

function newToken() {
  const bytes = new Uint8Array(16);
  window.crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

function studentToken() {
  const stored = read(STUDENT_KEY);
  if (typeof stored === "string" && TOKEN.test(stored)) return stored;
  memoryToken = memoryToken || newToken();
  write(STUDENT_KEY, memoryToken);
  return memoryToken;
}

export default function (component) {
  const { data, setStateValue } = component;
  const stored = read(ROOMS_KEY);
  const rooms = stored && typeof stored === "object" && !Array.isArray(stored) ? stored : {};
  let changed = false;
  for (const [code, secret] of Object.entries((data && data.keep) || {})) {
    if (rooms[code] !== secret) {
      delete rooms[code]; // re-added last: the keys keep the order the rooms were opened in
      rooms[code] = secret;
      changed = true;
    }
  }
  for (const code of Object.keys(rooms).slice(0, -MOST_ROOMS)) {
    delete rooms[code];
    changed = true;
  }
  if (changed) write(ROOMS_KEY, rooms);
  const session = data && data.session;
  if (session && session !== reportedFor) {
    reportedFor = session;
    setStateValue("keys", { student: studentToken(), rooms, stored: storageKept() });
  }
}
