// The player's own move, shown as the click lands: a card drawn appears in the hand, a card thrown
// goes to the discard pile (to the centre in Ronda Robada), before the server has answered. The
// server decides everything: it marks the controls whose click would make a move of this seat's
// on its turn (data-hod-guess="draw:<pile>", "discard" or "drop", components/live.py) and the
// browser only draws what that click would do, with what is on the page already (no hidden card
// is involved: a card drawn from the stock is a back). The server's next answer to this page
// (live.js `apply` with `answer`) replaces the guess: the same move confirmed, or the real state
// back with the refusal. An answer that never comes undoes the guess after HELD_MS.
// Only the DOM is touched, with marks of its own (data-hod-guessed, .hod-guess-card) that the
// server never writes, so undoing is removing them, whatever the server has redrawn meanwhile.
const GUESS = "data-hod-guess";
const GUESSED = "data-hod-guessed";
const HELD_MS = 4000;   // no answer by then (a lost event): the guess goes away
const MIN_LEFT_MS = 150;   // a confirmed card still flying finishes its way in at least this
const EASING = "cubic-bezier(.2,.7,.3,1)";   // live.js's travels
const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

let pending = null;   // the guess on the screen: {undo, standIns, back, started, ms, timer}

function travelMs(table) {
  return reducedMotion.matches ? 0 : Number(table.dataset.motionMs || 0);
}

// a card picture at another size (the hand's cards are md, the piles' lg)
function cardCopy(img, size) {
  const copy = img.cloneNode(false);
  copy.className = img.className.replace(/hod-card-(xs|sm|md|lg)/, `hod-card-${size}`);
  copy.removeAttribute("data-card");   // never matched by a selector meant for the real cards
  copy.setAttribute("aria-hidden", "true");
  return copy;
}

// FLIP: `el` is in its place already; it slides in from `from` (a rect) over `ms`
function slide(el, from, ms) {
  if (!ms || !from || !from.width) return;
  const end = el.getBoundingClientRect();
  if (!end.width) return;
  el.animate([{ transform: `translate(${from.left - end.left}px, ${from.top - end.top}px)` }, { transform: "none" }],
             { duration: ms, easing: EASING });
}

function setVar(el, name, value) {
  const before = el.style.getPropertyValue(name);
  el.style.setProperty(name, value);
  return () => { if (el.style.getPropertyValue(name) === value) el.style.setProperty(name, before); };
}

// A card from a pile into your hand: a new slot at its right end (where a drawn card goes), the
// pile pressed (and its top card gone, from the discard pile).
function draw(table, from) {
  const pile = table.querySelector(`[data-testid="${from}"]`);
  const hand = table.querySelector("[data-testid=hand] .hod-hand");
  const img = pile && pile.firstElementChild && pile.firstElementChild.querySelector("img.hod-card");
  if (!hand || !img) return null;
  const start = img.getBoundingClientRect();
  const slot = document.createElement("div");
  slot.className = "hod-slot hod-guess-card";
  slot.setAttribute("aria-hidden", "true");
  const card = cardCopy(img, "md");
  slot.append(card);
  const bar = document.createElement("div");
  bar.className = "hod-bar";
  slot.append(bar);
  const count = hand.querySelectorAll(":scope > .hod-slot").length;
  const restore = setVar(hand, "--hod-n", String(count + 1));
  hand.append(slot);
  pile.setAttribute(GUESSED, from === "discard" ? "taken" : "drawn");
  return {
    moves: [[card, start]],
    standIns: [[pile.firstElementChild, card]],   // what live.js's travel from the pile starts from
    back: [],
    undo: () => { slot.remove(); restore(); pile.removeAttribute(GUESSED); },
  };
}

// Your chosen card onto the discard pile: it leaves the hand and lies on the pile.
function discard(table, slot) {
  const pile = table.querySelector("[data-testid=discard]");
  const picture = pile && pile.firstElementChild;
  const img = slot && slot.querySelector("img.hod-card");
  if (!picture || !img) return null;
  const start = img.getBoundingClientRect();
  const card = cardCopy(img, "lg");
  card.classList.add("hod-guess-card");
  picture.append(card);
  picture.setAttribute(GUESSED, "");
  const hand = slot.parentElement;
  const restore = setVar(hand, "--hod-n", String(Math.max(1, hand.querySelectorAll(":scope > .hod-slot").length - 1)));
  slot.setAttribute(GUESSED, "gone");
  return {
    moves: [[card, start]],
    standIns: [[slot, card]],
    back: [[slot, card]],   // refused: the card comes back from where it lies
    undo: () => { card.remove(); picture.removeAttribute(GUESSED); slot.removeAttribute(GUESSED); restore(); },
  };
}

// Ronda Robada: your chosen card dropped among the loose cards.
function drop(table) {
  const chosen = table.querySelector("[data-testid=hand] [data-testid=hand-card].hod-selected");
  const loose = table.querySelector(".hod-rr-loose");
  const img = chosen && chosen.querySelector("img.hod-card");
  if (!loose || !img) return null;
  const start = img.getBoundingClientRect();
  const wrap = document.createElement("div");
  wrap.className = "hod-rr-card hod-guess-card";
  wrap.append(cardCopy(img, "md"));
  loose.append(wrap);
  loose.setAttribute(GUESSED, "");
  chosen.setAttribute(GUESSED, "gone");
  return {
    moves: [[wrap, start]],
    standIns: [[chosen, wrap]],
    back: [[chosen, wrap]],
    undo: () => { wrap.remove(); loose.removeAttribute(GUESSED); chosen.removeAttribute(GUESSED); },
  };
}

function guess(trigger, slot) {
  const table = trigger.closest("[data-testid=table]");
  const what = trigger.getAttribute(GUESS);
  if (pending || !table || !what || trigger.disabled) return;
  let made = null;
  if (what.startsWith("draw:")) made = draw(table, what.slice(5));
  else if (what === "discard") {
    const chosen = slot ? [slot] : [...table.querySelectorAll("[data-testid=hand] .hod-slot.hod-selected")];
    if (chosen.length === 1) made = discard(table, chosen[0]);
  } else if (what === "drop") made = drop(table);
  if (!made) return;
  const ms = travelMs(table);
  pending = { ...made, standIns: new Map(made.standIns), started: performance.now(), ms };
  pending.timer = setTimeout(() => settle().undo(false), HELD_MS);
  // the cards set off at the next frame, before it is painted (as live.js lands its travels)
  if (ms) requestAnimationFrame(() => made.moves.forEach(([el, from]) => slide(el, from, ms)));
}

function clicked(e) {
  const trigger = e.target.closest && e.target.closest(`[${GUESS}]`);
  if (!trigger) return;
  // a <button> turns Enter and Space into a click itself; the piles are divs and take the keys
  if (e.type === "keydown" && (trigger.tagName === "BUTTON" || e.repeat || (e.key !== "Enter" && e.key !== " "))) return;
  guess(trigger, null);
}

function dropped(e) {
  const trigger = e.target.closest && e.target.closest(`[${GUESS}=discard]`);
  const index = e.dataTransfer && e.dataTransfer.getData("text/plain");
  const table = trigger && trigger.closest("[data-testid=table]");
  const slot = table && index !== "" && table.querySelector(`[data-testid=hand] .hod-slot[data-index="${index}"]`);
  if (slot) guess(trigger, slot);
}

// Listened to as the events bubble: the page's own handler has sent the click to the server
// first, and the guess is drawn while it travels.
export function watchGuesses() {
  document.addEventListener("click", clicked);
  document.addEventListener("keydown", clicked);
  document.addEventListener("drop", dropped);
}

// The guess on the screen ends (an answer came, or none in time): `standIn(el)` is what stands
// for el meanwhile (where a travel of the answer starts from), `left` how long a travel of it
// still has to go, and `undo(confirmed)` removes the guess; unconfirmed, the card slides back.
export function settle() {
  const ending = pending;
  pending = null;
  if (!ending) return { standIn: () => undefined, left: (ms) => ms, undo: () => {} };
  clearTimeout(ending.timer);
  return {
    standIn: (el) => ending.standIns.get(el),
    left: (ms) => Math.max(MIN_LEFT_MS, ms - (performance.now() - ending.started)),
    undo: (confirmed) => {
      const back = confirmed || !ending.ms ? [] : ending.back.map(([el, from]) => [el, from.getBoundingClientRect()]);
      ending.undo();
      if (back.length) requestAnimationFrame(() => back.forEach(([el, from]) => slide(el, from, 2 * MIN_LEFT_MS)));
    },
  };
}
