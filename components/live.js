// The browser end of a live channel (components/live.py). Patches arrive through `apply` and are
// written straight into the elements marked data-hod-live="<key>", without NiceGUI redrawing the
// page. NiceGUI's own copy of those elements keeps older values (it offers no public way to change
// it quietly), so the newest values are also kept here and written again into any marked element
// the page creates later: an element NiceGUI re-mounts shows the newest values, not its copy.
// Kept per page, not per channel, so that they outlive a re-mount of the channel itself.
// Every table screen mounts this module, so it also carries the table's other browser behaviours:
// card motions, sounds, the focus keeper, the turn clocks and the reactions pinned to their seats,
// and (guess.js) the player's own move shown before the server's answer.
import { settle, watchGuesses } from "guess";

const MARK = "data-hod-live";
const FOCUSABILITY = ["disabled", "tabindex"];
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
  if (entry.source && entry.source !== el) {
    el.innerHTML = entry.source.innerHTML;
    entry.source = el;
  }
  shown.set(el, entry.version);
}

// A block drawn as pieces (live.py's Pieces) gets only the pieces that changed: [head, steps], the
// wrapper's new opening tag (null: unchanged) and [start, how many to remove, markup to insert]
// per step. Its newest markup is then the element that took them (`source`), not a stored value.
function splice(el, [head, steps]) {
  const box = el.firstElementChild;
  if (!box) return;
  if (head !== null) {
    const template = document.createElement("template");
    template.innerHTML = head;
    const fresh = template.content.firstElementChild;
    for (const name of box.getAttributeNames()) if (!fresh.hasAttribute(name)) box.removeAttribute(name);
    for (const name of fresh.getAttributeNames()) box.setAttribute(name, fresh.getAttribute(name));
  }
  for (const [start, count, markup] of steps) {
    for (let i = 0; i < count; i++) box.children[start].remove();
    const next = box.children[start];
    if (markup) next ? next.insertAdjacentHTML("beforebegin", markup) : box.insertAdjacentHTML("beforeend", markup);
  }
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

// A card travels (stock or discard pile to a seat, a hand to the discard pile): where it starts
// is read before the patch, where it lands after it. Without a ghost the landed element itself
// slides in from the start (FLIP: it is already in its final place, only a transform moves);
// with a ghost, a copy of the start (a card back, the card taken) flies to the seat and fades.
// Transforms only: nothing around the card moves, and the player can act meanwhile.
const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

// A card the player's guess has moved already (guess.js) starts from where the guess has it now.
function takeOff(motions, guessed) {
  const flights = [];
  for (const [from, to, ghost] of motions) {
    const start = document.querySelector(from);
    if (!start) continue;
    const standIn = guessed && guessed.standIn(start);
    const rect = (standIn || start).getBoundingClientRect();
    if (!rect.width) continue; // hidden: nowhere to start from
    flights.push({ to, rect, ghost: ghost ? start.cloneNode(true) : null, guessed: Boolean(standIn) });
  }
  return flights;
}

function land({ to, rect, ghost }, ms) {
  const targets = document.querySelectorAll(to);
  const target = targets[targets.length - 1]; // a card just drawn is the rightmost of the hand
  if (!target) return;
  const end = target.getBoundingClientRect();
  if (!end.width) return;
  const dx = rect.left - end.left, dy = rect.top - end.top;
  const timing = { duration: ms, easing: "cubic-bezier(.2,.7,.3,1)" };
  if (!ghost) {
    target.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }], timing);
    return;
  }
  ghost.removeAttribute(MARK);
  ghost.removeAttribute("data-testid");
  for (const el of ghost.querySelectorAll("[data-testid]")) el.removeAttribute("data-testid");
  Object.assign(ghost.style, {
    position: "fixed", left: `${rect.left}px`, top: `${rect.top}px`, width: `${rect.width}px`,
    height: `${rect.height}px`, margin: "0", zIndex: "60", pointerEvents: "none",
  });
  ghost.setAttribute("aria-hidden", "true");
  ghost.classList.add("hod-ghost");
  document.body.appendChild(ghost);
  const scale = Math.min(1, Math.max(0.3, end.height / rect.height));
  const toX = end.left + end.width / 2 - (rect.left + rect.width / 2);
  const toY = end.top + end.height / 2 - (rect.top + rect.height / 2);
  ghost
    .animate([{ transform: "none", opacity: 1 },
              { transform: `translate(${toX}px, ${toY}px) scale(${scale})`, opacity: 0.2 }], timing)
    .finished.finally(() => ghost.remove());
}

// Parts of the table are redrawn as the game moves; a keyboard player must not lose their place.
// When the focused element is replaced, focus goes back to its successor (same test id and slot).
function keepFocus() {
  let last = null, keyboard = false;
  document.addEventListener("keydown", () => { keyboard = true; }, true);
  document.addEventListener("pointerdown", () => { keyboard = false; }, true);
  document.addEventListener("focusin", (e) => {
    const el = e.target.closest("[data-testid]");
    if (el && el.closest("[data-testid=table]")) last = { testid: el.dataset.testid, index: el.dataset.index };
  });
  // a card moved with Shift+arrow keeps the focus at its new place, so it can travel on
  document.addEventListener("hod-moved", (e) => { last = { testid: "hand-card", index: String(e.detail) }; });
  // after a discard your next move is a draw: the focus waits on the stock (your hand where the
  // stock cannot be drawn from)
  document.addEventListener("click", (e) => {
    if (keyboard && e.target.closest("[data-testid=discard-button], [data-testid=drop]")) last = { testid: "stock" };
  }, true);
  return () => {
    const active = document.activeElement;
    if (!keyboard || !last || (active && active !== document.body && !active.disabled)) return;
    const exact = `[data-testid="${last.testid}"]` + (last.index === undefined ? "" : `[data-index="${last.index}"]`);
    const target = [exact, `[data-testid="${last.testid}"]`, '[data-testid="hand-card"]']
      .map((selector) => document.querySelector(selector)).find((el) => el && el.hasAttribute("tabindex"));
    if (target) target.focus({ preventScroll: true });
  };
}

// At a room: the turn clock counts down each second in the browser, and a reaction is pinned over
// the top edge of its sender's seat box (absolutely, so nothing moves); with no seat box in view
// (yours where the board draws none, or during a count) it stays in the room strip. Part of this
// module, not a script added to the page: a table drawn after the page loaded (a room's waiting
// room turning into its table) runs no script tag. So is the focus keeper above.
function tickClocks() {
  for (const el of document.querySelectorAll("[data-testid=turn-clock]")) {
    el.hodEnd = el.hodEnd || Date.now() + Number(el.dataset.left);
    const seconds = el.querySelector("b");
    if (seconds) seconds.textContent = Math.max(0, Math.ceil((el.hodEnd - Date.now()) / 1000));
  }
}

function pinBubble(bubble) {
  const felt = bubble.closest(".hod-felt");
  const seat = document.querySelector(`[data-testid="${bubble.dataset.pin}"][data-seat="${bubble.dataset.seat}"]`);
  const box = seat && seat.getBoundingClientRect();
  const pinned = Boolean(felt && box && box.width);
  bubble.classList.toggle("hod-pinned", pinned);
  if (!pinned) return;
  const base = felt.getBoundingClientRect();
  bubble.style.left = `${Math.round(box.left - base.left + box.width / 2)}px`;
  bubble.style.top = `${Math.round(box.top - base.top)}px`;
}

// Sounds made in the browser with Web Audio (nothing fetched): a card's flick, a shuffle, a chime
// when it becomes your turn, a flourish for a win. Browsers let a page make sound only after the
// person has used it, so no AudioContext exists before the first pointer or key; the switch in the
// top bar (sound-toggle) mutes it, remembered by this browser.
const SOUND_KEY = "hod-sound";
let audio = null, unlocked = false;
const soundOn = () => localStorage.getItem(SOUND_KEY) !== "off";

function context() {
  if (!unlocked) return null;
  const Audio = window.AudioContext || window.webkitAudioContext;
  if (!audio && Audio) audio = new Audio();
  return audio;
}

function tone(a, { freq, at = 0, dur = 0.2, gain = 0.1, type = "sine" }) {
  const t = a.currentTime + at, osc = a.createOscillator(), amp = a.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, t);
  amp.gain.setValueAtTime(gain, t);
  amp.gain.exponentialRampToValueAtTime(0.0005, t + dur);
  osc.connect(amp).connect(a.destination);
  osc.start(t);
  osc.stop(t + dur + 0.02);
}

function rustle(a, { at = 0, dur = 0.045, gain = 0.2, freq = 2500 }) {
  const t = a.currentTime + at, length = Math.ceil(a.sampleRate * dur);
  const buffer = a.createBuffer(1, length, a.sampleRate), data = buffer.getChannelData(0);
  for (let i = 0; i < length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / length);
  const source = a.createBufferSource(), band = a.createBiquadFilter(), amp = a.createGain();
  source.buffer = buffer;
  band.type = "bandpass";
  band.frequency.value = freq;
  amp.gain.value = gain;
  source.connect(band).connect(amp).connect(a.destination);
  source.start(t);
}

const SOUNDS = {
  flick: (a) => rustle(a, {}),
  shuffle: (a) => { for (let i = 0; i < 8; i++) rustle(a, { at: i * 0.05, freq: 1800 + i * 120, gain: 0.15 }); },
  chime: (a) => { tone(a, { freq: 880, dur: 0.4 }); tone(a, { freq: 1320, at: 0.1, dur: 0.45, gain: 0.06 }); },
  win: (a) => [523, 659, 784, 1047].forEach((freq, i) => tone(a, { freq, at: i * 0.12, dur: 0.35, type: "triangle" })),
};

function play(names) {
  if (!names.length || !soundOn()) return;
  const a = context();
  if (!a) return;
  if (a.state === "suspended") a.resume();
  for (const name of names) if (SOUNDS[name]) SOUNDS[name](a);
}

function showSoundSwitch() {
  for (const el of document.querySelectorAll("[data-testid=sound-toggle]")) {
    const on = soundOn();
    if (el.getAttribute("aria-pressed") !== String(on)) el.setAttribute("aria-pressed", String(on));
    const label = on ? el.dataset.labelOn : el.dataset.labelOff;
    if (label && el.getAttribute("aria-label") !== label) { el.setAttribute("aria-label", label); el.title = label; }
  }
}

function soundSwitch(e) {
  if (!e.target.closest("[data-testid=sound-toggle]")) return;
  localStorage.setItem(SOUND_KEY, soundOn() ? "off" : "on");
  showSoundSwitch();
}

function pinBubbles() {
  for (const bubble of document.querySelectorAll(".hod-bubble[data-pin]")) pinBubble(bubble);
}

export default {
  inheritAttrs: false,
  render() {
    return null;
  },
  mounted() {
    if (watching) return;
    watching = true;
    const refocus = keepFocus();
    watchGuesses();
    // the audio is made as the first button or key goes down, not with the first sound: making it
    // blocks the page for tens of ms (70 in headless Chromium), which a person's press hides (the
    // click comes when the button is released) but the first move's redraw would show
    const unlock = () => {
      if (unlocked) return;
      unlocked = true;
      if (soundOn()) context();
    };
    document.addEventListener("pointerdown", unlock, true);
    document.addEventListener("keydown", unlock, true);
    document.addEventListener("click", soundSwitch);
    showSoundSwitch();
    new MutationObserver((mutations) => {
      showAdded(mutations);
      refocus();
      pinBubbles();
      showSoundSwitch();
    }).observe(document.body, { childList: true, subtree: true });
    window.addEventListener("resize", pinBubbles);
    setInterval(tickClocks, 250);
  },
  methods: {
    // patches: [[key, name, value], ...]; name is an attribute (null or false removes it, true
    // sets it empty), "innerHTML" for trusted markup, "setHTML" for markup to sanitize, or
    // "pieces" for the changed pieces of trusted markup (see `splice`).
    // motions: [[from, to, ghost], ...] CSS selectors of a card's way across the table, played in
    // `ms` milliseconds once the patches are written (see `travel`); sounds: names to play;
    // answer: sent while the server handled this page's own event, which ends any guess of it
    // (confirmed when the table moved on: a new data-version).
    apply(patches, motions = [], ms = 0, sounds = [], answer = false) {
      play(sounds);
      const guessed = answer ? settle() : null;
      const flights = motions.length && ms > 0 && !reducedMotion.matches ? takeOff(motions, guessed) : [];
      if (guessed) guessed.undo(patches.some(([, name]) => name === "data-version"));
      version += 1;
      const changes = new Map(); // key -> {name: value}
      for (const [key, name, value] of patches) {
        const id = String(key);
        if (!changes.has(id)) changes.set(id, {});
        changes.get(id)[name] = value;
      }
      // what makes an element focusable goes first: switching off the focused one (the button or
      // pile just clicked) makes the browser work out styles at once, which costs little before
      // the markup changes and a whole table's worth after them (3-5 ms on a draw or a discard)
      for (const [id, values] of changes) {
        const el = FOCUSABILITY.some((name) => name in values) && document.querySelector(`[${MARK}="${id}"]`);
        for (const name of el ? FOCUSABILITY : []) if (name in values) write(el, name, values[name]);
      }
      for (const [id, { pieces, ...values }] of changes) {
        const entry = newest.get(id) ?? { values: {} };
        entry.version = version;
        Object.assign(entry.values, values);
        newest.set(id, entry);
        const el = document.querySelector(`[${MARK}="${id}"]`);
        if ("innerHTML" in values || "setHTML" in values) entry.source = null;
        const target = pieces && (el ?? entry.source);
        if (target) {
          splice(target, pieces);
          entry.source = target;
          delete entry.values.innerHTML;
        }
        if (!el) continue; // not on the page now: drawn when it appears
        for (const [name, value] of Object.entries(values)) if (!FOCUSABILITY.includes(name)) write(el, name, value);
        shown.set(el, version);
      }
      // landed at the next frame, before it is painted: the new layout is then computed once, by
      // the frame itself, instead of inside this patch
      if (flights.length) {
        requestAnimationFrame(() => flights.forEach((flight) => land(flight, flight.guessed ? guessed.left(ms) : ms)));
      }
    },
  },
};
