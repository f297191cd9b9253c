// Buttons that step a number and count every click (Streamlit components v2, no iframe, nothing
// loaded from the network). Streamlit folds two clicks of one st.button that reach the server before
// its script yields into one trigger; these send the value the clicks lead to, with the click's
// number, so the newest value the server gets carries every click before it.
//
// data = { label, step (signed), value (the server's), low, high, group, session,
//          applied (the number of the last click the server applied) }
// The buttons of one group (Previous and Next) share the value clicked so far: a click on one after a
// click on the other starts from where that one led.

const groups = new Map(); // group -> { session, value, clicks, buttons: Set of [button, step] }

function groupOf(data) {
  let group = groups.get(data.group);
  if (!group || group.session !== data.session) {
    group = { session: data.session, value: data.value, clicks: data.applied, buttons: new Map() };
    groups.set(data.group, group);
  }
  if (data.applied >= group.clicks) {
    // The server has applied every click sent: its value is the one to step from (a slider or Play
    // may have moved it since).
    group.value = data.value;
    group.clicks = data.applied;
  }
  return group;
}

function refresh(group, data) {
  for (const [button, step] of group.buttons) {
    if (!button.isConnected) {
      group.buttons.delete(button);
      continue;
    }
    const next = Math.min(Math.max(group.value + step, data.low), data.high);
    button.disabled = next === group.value;
  }
}

export default function (component) {
  const { data, parentElement, setStateValue } = component;
  const group = groupOf(data);
  let button = parentElement.querySelector("button");
  if (!button) {
    button = document.createElement("button");
    button.type = "button";
    parentElement.append(button);
  }
  button.textContent = data.label;
  group.buttons.set(button, data.step);
  button.onclick = () => {
    const next = Math.min(Math.max(group.value + data.step, data.low), data.high);
    if (next === group.value) return;
    group.value = next;
    group.clicks += 1;
    setStateValue("target", { value: next, click: group.clicks });
    refresh(group, data);
  };
  refresh(group, data);
}
