// A box for a number and its Send button (Streamlit components v2, no iframe, nothing loaded from
// the network). The box says inputmode="decimal", so a phone raises its numeric keypad with a
// decimal separator; Enter or the button sends the box's text with a new random id (the server takes
// each id once). The component writes only its own root; its texts go in as textContent and
// attributes, never as markup.
//
// data = { label, placeholder, button, disabled }

function newId() {
  const bytes = new Uint8Array(8);
  window.crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

function build(parentElement) {
  const form = document.createElement("form");
  form.className = "db-root";
  const caption = document.createElement("div");
  caption.className = "db-label";
  const input = document.createElement("input");
  input.type = "text";
  input.inputMode = "decimal";
  input.enterKeyHint = "send";
  input.autocomplete = "off";
  input.spellcheck = false;
  const row = document.createElement("div");
  row.className = "db-row";
  const button = document.createElement("button");
  button.type = "submit";
  row.append(input, button);
  form.append(caption, row);
  parentElement.append(form);
  return form;
}

export default function (component) {
  const { data, parentElement, setStateValue } = component;
  const form = parentElement.querySelector("form.db-root") || build(parentElement);
  const input = form.querySelector("input");
  const button = form.querySelector("button");
  form.querySelector(".db-label").textContent = data.label;
  input.placeholder = data.placeholder || "";
  input.setAttribute("aria-label", data.label);
  button.textContent = data.button;
  input.disabled = button.disabled = Boolean(data.disabled);
  form.onsubmit = (event) => {
    event.preventDefault();
    if (input.disabled) return;
    setStateValue("sent", { text: input.value, id: newId() });
  };
}
