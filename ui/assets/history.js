// Reports the browser's back and forward buttons: the query of the entry it went to.
// (Streamlit reruns on a page change by itself; a change of the query alone it does not see.)
// A state value, not a trigger: it survives a rerun that another request merges with.
let listening = false;
let report = null; // the latest mount's setStateValue
let moves = 0;

export default function (component) {
  report = component.setStateValue;
  if (!listening) {
    listening = true;
    window.addEventListener("popstate", () => {
      // A text box still focused (C typed, Enter pressed, then Back) would commit its old text when
      // the rerun disables it, undoing the step back: let it commit now, before the move is reported.
      const focused = document.activeElement;
      if (focused && typeof focused.blur === "function") focused.blur();
      moves += 1;
      if (report) report("moved", { query: window.location.search, move: moves });
    });
  }
}
