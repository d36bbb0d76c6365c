// The browser end of a live channel (components/live.py). Patches arrive through `apply` and are
// written straight into the elements marked data-hod-live="<key>", without NiceGUI redrawing the
// page. NiceGUI's own copy of those elements keeps older values (it offers no public way to change
// it quietly), so the newest values are also kept here and written again into any marked element
// the page creates later: an element NiceGUI re-mounts shows the newest values, not its copy.
// Kept per page, not per channel, so that they outlive a re-mount of the channel itself.
const MARK = "data-hod-live";
const newest = new Map(); // key -> {version, values: {name: value}}
const shown = new WeakMap(); // element -> the version of its key it shows
let version = 0;
let watching = false;

function write(el, name, value) {
  if (name === "innerHTML") el.innerHTML = value;
  else if (name === "setHTML") el.setHTML(value); // markup the page sanitizes, like ui.html does
  else if (value === null || value === false) el.removeAttribute(name);
  else el.setAttribute(name, value === true ? "" : value);
}

function show(el) {
  const entry = newest.get(el.getAttribute(MARK));
  if (!entry || shown.get(el) === entry.version) return;
  for (const [name, value] of Object.entries(entry.values)) write(el, name, value);
  shown.set(el, entry.version);
}

function showAdded(mutations) {
  if (newest.size === 0) return;
  for (const mutation of mutations) {
    for (const node of mutation.addedNodes) {
      if (node.nodeType !== Node.ELEMENT_NODE) continue;
      if (node.hasAttribute(MARK)) show(node);
      for (const el of node.querySelectorAll(`[${MARK}]`)) show(el);
    }
  }
}

export default {
  inheritAttrs: false,
  render() {
    return null;
  },
  mounted() {
    if (watching) return;
    watching = true;
    new MutationObserver(showAdded).observe(document.body, { childList: true, subtree: true });
  },
  methods: {
    // patches: [[key, name, value], ...]; name is an attribute (null or false removes it, true
    // sets it empty), "innerHTML" for trusted markup or "setHTML" for markup to sanitize
    apply(patches) {
      version += 1;
      const changes = new Map(); // key -> {name: value}
      for (const [key, name, value] of patches) {
        const id = String(key);
        if (!changes.has(id)) changes.set(id, {});
        changes.get(id)[name] = value;
      }
      for (const [id, values] of changes) {
        const entry = newest.get(id) ?? { values: {} };
        entry.version = version;
        Object.assign(entry.values, values);
        newest.set(id, entry);
        const el = document.querySelector(`[${MARK}="${id}"]`);
        if (!el) continue; // not on the page now: drawn when it appears
        for (const [name, value] of Object.entries(values)) write(el, name, value);
        shown.set(el, version);
      }
    },
  },
};
