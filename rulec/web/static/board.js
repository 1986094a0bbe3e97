// The board page: draws the position the server sends on the aids' map and turns clicks into orders.
// Generic: every legal order arrives with its kind, unit and hex; the map offers the ones that name a
// unit or hex, and the panel lists every order by kind, so a new kind of order is a plain choice.
"use strict";
const SVG = "http://www.w3.org/2000/svg";
const gameId = document.body.dataset.gameId;
const layout = JSON.parse(document.body.dataset.layout);  // hex centres and sizes on the map drawing
const mapSvg = document.querySelector("#map svg.map-sheet");
let view = null;          // the position shown
let selected = null;      // the selected unit id
let replayStep = null;    // a step number while replaying, else null
let aiRunning = false;

const $ = (id) => document.getElementById(id);
function el(tag, attrs = {}, text = "") {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text) node.textContent = text;
  return node;
}
function say(text, note = false) { const m = $("message"); m.textContent = text; m.className = note ? "message note" : "message"; }

async function api(path, method = "GET", body = undefined) {
  // Every write is JSON, even with nothing to say (undo, AI move): the server may refuse any other kind.
  if (method !== "GET" && body === undefined) body = {};
  const response = await fetch(`/api/games/${gameId}${path}`, {
    method, headers: body === undefined ? {} : {"content-type": "application/json"},
    body: body === undefined ? undefined : JSON.stringify(body)});
  const data = await response.json();
  if (!response.ok) {
    const error = new Error(data.error || response.statusText);
    error.rule = data.rule;
    throw error;
  }
  return data;
}

async function refresh() { show(await api(replayStep === null ? "" : `?at=${replayStep}`)); }

async function order(text) {
  if (replayStep !== null) {  // a past position is shown: it is not the game's to play
    say("replay shows a past position: press \u201cback to the game\u201d to give orders");
    return;
  }
  try {
    show(await api("/orders", "POST", {order: text}));
    say(`ordered: ${text}`, true);
  } catch (error) {
    say(error.rule ? `illegal (rule ${error.rule}): ${error.message}` : `refused: ${error.message}`);
    if (error.rule) {
      const link = el("a", {href: "#", id: "rule-link"}, ` [${error.rule}?]`);
      link.addEventListener("click", async (event) => { event.preventDefault(); say(await ruleText(error.rule), true); });
      $("message").appendChild(link);
    }
  }
}

// ------------------------------------------------------------ drawing
// The counters go under the place names (which the map keeps readable by moving a name below the
// counters of its hex) and over everything else; only hexes and counters take clicks (board.css).
function pieces() {
  let layer = mapSvg.querySelector("g#pieces");
  if (!layer) {
    layer = document.createElementNS(SVG, "g"); layer.id = "pieces";
    mapSvg.insertBefore(layer, mapSvg.querySelector("g.places"));  // no place names: last
  }
  return layer;
}

// Each place name's hex: the hex whose centre is nearest the name (printed just below the centre).
const placeLabels = [...mapSvg.querySelectorAll("g.places text")].map((text) => {
  const x = parseFloat(text.getAttribute("x")), y = parseFloat(text.getAttribute("y"));
  let hex = null, best = Infinity;
  for (const [id, [cx, cy]] of Object.entries(layout.centres)) {
    const d = (cx - x) ** 2 + (cy - y) ** 2;
    if (d < best) { best = d; hex = id; }
  }
  text.dataset.hex = hex;
  return {text, hex, y};
});
const placeFont = parseFloat(mapSvg.querySelector("g.places")?.getAttribute("font-size") || "0");

function movePlaceNames(stacks, size) {
  for (const {text, hex, y} of placeLabels) {
    if (!stacks[hex]) { text.removeAttribute("transform"); continue; }
    const below = layout.centres[hex][1] + size / 2 + placeFont;  // the first line's baseline under the counters
    text.setAttribute("transform", `translate(0 ${(below - y).toFixed(2)})`);
  }
}

function drawUnits() {
  const layer = pieces();
  layer.replaceChildren();
  const size = layout.unit * 1.15;
  const acting = new Set(view.legal.filter((a) => a.unit).map((a) => a.unit));
  const stacks = {};
  for (const unit of view.units) if (unit.status === "map") (stacks[unit.hex] ||= []).push(unit);
  for (const [hex, units] of Object.entries(stacks)) {
    const [cx, cy] = layout.centres[hex];
    units.forEach((unit, i) => {
      const g = document.createElementNS(SVG, "g");
      g.setAttribute("class", "piece" + (unit.id === selected ? " selected" : "") + (acting.has(unit.id) ? " acting" : ""));
      g.dataset.unit = unit.id; g.dataset.hex = hex; g.dataset.name = unit.name;
      const x = cx - size / 2 + i * size * 0.12, y = cy - size / 2 - i * size * 0.12;
      const use = document.createElementNS(SVG, "use");
      use.setAttribute("href", `#counter-${unit.id}-${unit.face}`);
      for (const [k, v] of [["x", x], ["y", y], ["width", size], ["height", size]]) use.setAttribute(k, v);
      const ring = document.createElementNS(SVG, "rect");
      for (const [k, v] of [["x", x], ["y", y], ["width", size], ["height", size], ["fill", "none"], ["class", "ring"]]) ring.setAttribute(k, v);
      const title = document.createElementNS(SVG, "title");
      title.textContent = `${unit.name} (${unit.strength}-${unit.move}) in ${hex}`;
      g.append(use, ring, title);
      g.addEventListener("click", (event) => { event.stopPropagation(); clickUnit(unit.id, hex); });
      layer.appendChild(g);
    });
  }
  movePlaceNames(stacks, size);
}

function highlight() {
  for (const polygon of mapSvg.querySelectorAll("polygon[data-hex]")) {
    polygon.classList.remove("reach", "target");
    polygon.removeAttribute("data-cost");
    const old = polygon.querySelector("title.cost"); if (old) old.remove();
  }
  if (!view || replayStep !== null) return;
  for (const action of view.legal) {
    if (!action.hex) continue;
    const polygon = mapSvg.querySelector(`polygon[data-hex="${CSS.escape(action.hex)}"]`);
    if (!polygon) continue;
    if (selected && action.unit === selected) polygon.classList.add("reach");
    else if (!action.unit && !selected) polygon.classList.add("target");
  }
}

async function showCosts() {
  // MP cost on hover of each hex the selected unit can reach (a tooltip, from the engine's move_cost).
  if (!selected) return;
  const unit = view.units.find((u) => u.id === selected);
  for (const polygon of mapSvg.querySelectorAll("polygon.reach")) {
    const title = document.createElementNS(SVG, "title");
    title.setAttribute("class", "cost");
    const cost = view.costs && view.costs[polygon.dataset.hex];
    title.textContent = `${unit ? unit.name : selected} to ${polygon.dataset.hex}` + (cost !== undefined ? `: ${cost} MP` : "");
    polygon.appendChild(title);
  }
}

function drawZoc() {
  // Each side's zone of control, outlined in its colour, when the box is ticked.
  for (const polygon of mapSvg.querySelectorAll("polygon.zoc")) { polygon.classList.remove("zoc"); polygon.style.removeProperty("stroke"); }
  if (!$("show-zoc").checked || !view.zoc) return;
  for (const [side, hexes] of Object.entries(view.zoc)) {
    for (const hex of hexes) {
      const polygon = mapSvg.querySelector(`polygon[data-hex="${CSS.escape(hex)}"]`);
      if (polygon && !polygon.classList.contains("reach")) {
        polygon.classList.add("zoc");
        polygon.style.stroke = view.sides[side]?.color || "#000";
        polygon.dataset.zoc = side;
      }
    }
  }
}

async function ruleText(rule) {
  // The case's text from the game file and the refusals that cite it, e.g. "rule 7.31: A unit may never... (cited for: enemy occupied)".
  try {
    const found = await api(`/rules/${encodeURIComponent(rule)}`);
    const cited = found.cited_by.length ? ` (cited for: ${found.cited_by.join(", ")})` : "";
    return `rule ${rule}: ${found.text || "the game file gives no text for this case"}${cited}`;
  } catch (error) {
    return `rule ${rule}: ${error.message}`;
  }
}

function button(action) {
  const b = el("button", {class: "order", "data-order": action.text, "data-kind": action.kind}, action.text);
  b.addEventListener("click", () => order(action.text));
  return b;
}

function drawPanel() {
  const sides = Object.entries(view.sides);
  const who = view.terminal ? "the game is over" : view.deciding === "chance" ? "the die" :
    `${view.sides[view.deciding]?.name || view.deciding} (${view.player_kind}) to decide`;
  $("status").textContent = `${view.turn_label} (turn ${view.turn}) · ${view.phase} · ${who}`;
  $("status").dataset.deciding = view.deciding || "";
  const vp = $("vp"); vp.replaceChildren();
  vp.appendChild(el("p", {id: "vp-line"}, "VP " + sides.map(([id, s]) => `${s.name} ${s.vp}`).join(" · ")));
  if (view.vp_log.length) {
    const details = el("details"); details.appendChild(el("summary", {}, "where each point came from"));
    const list = el("ul");
    for (const e of view.vp_log) list.appendChild(el("li", {}, `turn ${e.turn}, ${e.phase}: ${view.sides[e.side]?.name || e.side} ${e.amount >= 0 ? "+" : ""}${e.amount}: ${e.text}${e.unit ? " (" + e.unit + (e.hex ? ", " + e.hex : "") + ")" : e.hex ? " (" + e.hex + ")" : ""}`));
    details.appendChild(list); vp.appendChild(details);
  }
  if (view.outcome) vp.appendChild(el("p", {id: "outcome", "data-winner": view.outcome.winner || ""}, `Game over. ${view.outcome.text}`));
  const ai = !view.terminal && view.player_kind && view.player_kind !== "human";
  $("ai-step").hidden = !ai; $("ai-run").hidden = !ai;
  $("replay-step").textContent = replayStep === null ? `${view.steps}` : `${replayStep} / ${view.replay_last ?? ""}`;

  const battle = $("battle"); battle.replaceChildren();
  if (view.declaring) battle.appendChild(el("p", {id: "declaring"}, `Battle at ${view.declaring.targets.join(", ")}: ` +
    (view.declaring.attackers.length ? `attackers ${view.declaring.attackers.join(", ")}` : "choose the attackers (click them)")));
  if (view.odds) {
    const o = view.odds;
    battle.appendChild(el("h2", {}, "Odds"));
    const facts = el("p", {id: "odds", "data-column": o.column, "data-drm": o.drm},
      `${o.attack} against ${o.defence}: column "${o.column}"` + (o.base_column !== o.column ? ` (from "${o.base_column}"` +
      (o.terrain_shift ? `, terrain ${o.terrain_shift > 0 ? "+" : ""}${o.terrain_shift}` : "") +
      (o.modifier_shift ? `, modifiers ${o.modifier_shift > 0 ? "+" : ""}${o.modifier_shift}` : "") + ")" : "") +
      (o.drm ? `, die ${o.drm > 0 ? "+" : ""}${o.drm}` : "") +
      (o.modifiers.length ? `; modifiers: ${o.modifiers.join(", ")}` : ""));
    battle.appendChild(facts);
    const table = el("table", {class: "odds", id: "odds-results"});
    table.appendChild(el("tr")).append(el("th", {}, "result"), el("th", {}, "chance"));
    for (const r of o.results) {
      const row = el("tr", {"data-code": r.code, "data-percent": r.percent});
      row.append(el("td", {}, `${r.code} ${r.name !== r.code ? "(" + r.name + ")" : ""}`), el("td", {}, `${r.percent}%`));
      table.appendChild(row);
    }
    battle.appendChild(table);
  }
  if (view.last_battle) {
    const b = view.last_battle;
    battle.appendChild(el("p", {id: "last-battle"}, `Last battle at ${b.hex}: column ${b.column}, die ${b.roll}, ${b.result} (${b.name})`));
  }

  const unitOrders = $("unit-orders"); unitOrders.replaceChildren();
  if (selected) {
    const unit = view.units.find((u) => u.id === selected);
    unitOrders.appendChild(el("h2", {}, `Orders for ${unit ? unit.name : selected}`));
    for (const action of view.legal.filter((a) => a.unit === selected)) unitOrders.appendChild(button(action));
  }
  const orders = $("orders"); orders.replaceChildren();
  const byKind = {};
  for (const action of view.legal) (byKind[action.kind] ||= []).push(action);
  if (Object.keys(byKind).length) orders.appendChild(el("h2", {}, "All legal orders"));
  for (const [kind, actions] of Object.entries(byKind)) {
    if (actions.length <= 8) { for (const a of actions) orders.appendChild(button(a)); continue; }
    const details = el("details", {"data-kind": kind}); details.appendChild(el("summary", {}, `${kind}: ${actions.length} orders`));
    for (const a of actions) details.appendChild(button(a));
    orders.appendChild(details);
  }

  const tray = $("tray"); tray.replaceChildren();
  const off = view.units.filter((u) => u.status !== "map");
  if (off.length) tray.appendChild(el("h2", {}, "Off the map"));
  for (const status of ["pending", "exited", "eliminated"]) {
    const units = off.filter((u) => u.status === status);
    if (!units.length) continue;
    tray.appendChild(el("div", {}, status === "pending" ? "reinforcements" : status));
    for (const unit of units) {
      const box = el("span", {class: "counter-box", "data-unit": unit.id, title: unit.name});
      const svg = document.createElementNS(SVG, "svg"); svg.setAttribute("viewBox", "0 0 54 54");
      const use = document.createElementNS(SVG, "use"); use.setAttribute("href", `#counter-${unit.id}-${unit.face}`);
      svg.appendChild(use);
      box.append(svg, el("br"), document.createTextNode(`${unit.name}${unit.due ? " T" + unit.due : ""}`));
      box.addEventListener("click", () => clickUnit(unit.id, null));
      tray.appendChild(box);
    }
  }
}

function show(data) {
  view = data;
  if (selected && !view.units.some((u) => u.id === selected)) selected = null;
  document.body.classList.toggle("replaying", replayStep !== null);
  // While a past step is shown nothing sends orders: the order box and the game's buttons are off.
  for (const control of document.querySelectorAll("#play-controls button, #order-form input, #order-form button")) {
    control.disabled = replayStep !== null;
  }
  drawUnits(); highlight(); drawZoc(); drawPanel(); showCosts();
  document.body.dataset.steps = view.steps;
  showLog(view.steps);
}

// ------------------------------------------------------------ the event log
let logAsked = 0;
async function showLog(step) {
  const asked = ++logAsked;
  let log;
  try { log = await api(replayStep === null ? "/log" : `/log?at=${step}`); } catch (error) { return; }
  if (asked !== logAsked) return;  // a newer position's log is on its way
  const list = el("ul", {id: "log-lines"});
  let heading = "";
  for (const event of log.events) {
    const phase = `${event.turn_label} (turn ${event.turn}) · ${event.phase}`;
    if (phase !== heading) { heading = phase; list.appendChild(el("li", {class: "phase"}, phase)); }
    list.appendChild(el("li", {class: event.kind, "data-kind": event.kind, "data-step": event.step}, event.text));
  }
  const box = $("log");
  box.dataset.step = step;
  if (!log.total) { box.replaceChildren(); return; }
  box.replaceChildren(el("h2", {}, log.total > log.events.length ? `What happened (the last ${log.events.length} of ${log.total})` : "What happened"), list);
  list.scrollTop = list.scrollHeight;
}

// ------------------------------------------------------------ clicks
function choose(actions, why) {
  if (actions.length === 1) return order(actions[0].text);
  const unitOrders = $("unit-orders"); unitOrders.replaceChildren(el("h2", {}, why));
  for (const a of actions) unitOrders.appendChild(button(a));
}

async function fetchCosts(uid) {
  view.costs = {};
  const hexes = [...new Set(view.legal.filter((a) => a.unit === uid && a.kind === "move").map((a) => a.hex))];
  if (hexes.length) {
    try { view.costs = (await api(`/costs/${encodeURIComponent(uid)}`)).costs; } catch (error) { view.costs = {}; }
  }
}

async function clickUnit(uid, hex) {
  if (replayStep !== null || !view) return;
  const legal = view.legal;
  if (selected && selected !== uid && hex) {
    const here = legal.filter((a) => a.unit === selected && a.hex === hex);
    if (here.length) { const done = choose(here, `Orders for ${selected} to ${hex}`); selected = null; return done; }
  }
  const own = legal.filter((a) => a.unit === uid);
  if (own.length && !own.some((a) => a.hex)) {  // with, lose, remove, delay: the unit is the whole order
    if (own.length === 1 && own[0].kind === "place") selected = uid;  // a placement's hexes come next: light them up
    if (own.length === 1) return order(own[0].text);
  }
  if (own.length) {
    selected = selected === uid ? null : uid;
    if (selected) await fetchCosts(uid);
    return show(view);
  }
  const atHex = hex ? legal.filter((a) => !a.unit && a.hex === hex) : [];
  if (atHex.length) return choose(atHex, `Orders at ${hex}`);
  if (hex) return hexInfo(hex);
}

async function clickHex(hex) {
  if (replayStep !== null || !view) return hexInfo(hex);
  const legal = view.legal;
  if (selected) {
    const mine = legal.filter((a) => a.unit === selected && a.hex === hex);
    if (mine.length) { const done = choose(mine, `Orders for ${selected} to ${hex}`); selected = null; return done; }
  }
  // Orders aimed at the hex: attacks, retreat paths ending there, advances and placements into it
  // (a unit's plain moves need the unit chosen first: many units may reach one hex).
  const atHex = legal.filter((a) => a.hex === hex && (!a.unit || a.kind !== "move"));
  if (atHex.length) return choose(atHex, `Orders at ${hex}`);
  selected = null; show(view);
  return hexInfo(hex);
}

async function hexInfo(hex) {
  try {
    const info = await api(`/hex/${encodeURIComponent(hex)}`);
    const box = $("hex-info"); box.replaceChildren(el("h2", {}, `Hex ${hex}${info.place ? " · " + info.place : ""}`));
    box.appendChild(el("p", {}, `terrain: ${info.terrain.join(", ") || "clear"}`));
    for (const s of info.hexsides) box.appendChild(el("p", {}, `${s.direction} (to ${s.towards}): ${s.features.join(", ")}`));
    if (info.units.length) box.appendChild(el("p", {}, `units: ${info.units.join(", ")}`));
    if (info.zoc_of.length) box.appendChild(el("p", {}, `in the ZOC of: ${info.zoc_of.join(", ")}`));
    if (info.zones.length) box.appendChild(el("p", {}, `zones: ${info.zones.join(", ")}`));
  } catch (error) { say(error.message); }
}

mapSvg.addEventListener("click", (event) => {
  const polygon = event.target.closest("[data-hex]");
  if (polygon) clickHex(polygon.dataset.hex);
});

$("undo").addEventListener("click", async () => {
  try {
    const data = await api("/undo", "POST");
    show(data);
    say(data.undone ? "order taken back" : "nothing to take back (a die roll or the AI's decision came after it)", true);
  } catch (error) { say(error.message); }
});

async function aiStep() {
  const data = await api("/ai", "POST");
  show(data);
  say(`AI: ${data.ai_order}`, true);
}
$("ai-step").addEventListener("click", () => aiStep().catch((error) => say(error.message)));
$("ai-run").addEventListener("click", async () => {
  if (aiRunning) return;
  aiRunning = true;
  try {
    while (!view.terminal && view.player_kind && view.player_kind !== "human") {
      await aiStep();
      await new Promise((resolve) => setTimeout(resolve, 150));  // the AI's orders shown one by one
    }
  } catch (error) { say(error.message); }
  aiRunning = false;
});

$("order-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const text = $("order-text").value.trim();
  if (text) order(text);
});
$("save").href = `/api/games/${gameId}/save`;
$("show-zoc").addEventListener("change", () => view && drawZoc());
$("load-file").addEventListener("change", async (event) => {
  try {
    const response = await fetch("/api/load", {method: "POST", headers: {"content-type": "application/json"},
                                                body: await event.target.files[0].text()});
    const data = await response.json();
    if (!response.ok) throw new Error(data.error);
    window.location = `/games/${data.id}`;
  } catch (error) { say(error.message); }
});

let replayLast = null;  // the game's length when the replay began
async function replayTo(step) {
  if (replayStep === null) replayLast = view.steps;
  if (step < 0 || step > replayLast) return;
  replayStep = step;
  try {
    const data = await api(`?at=${step}`);
    if (step !== replayStep) return;  // a later click has asked for another step: show that one only
    data.replay_last = replayLast;
    selected = null;
    show(data);
  } catch (error) { say(error.message); }
}
$("replay-back").addEventListener("click", () => replayTo((replayStep === null ? view.steps : replayStep) - 1));
$("replay-forward").addEventListener("click", () => { if (replayStep !== null) replayTo(replayStep + 1); });
$("replay-exit").addEventListener("click", () => { replayStep = null; refresh(); });

// ------------------------------------------------------------ zoom
// The map is drawn at `scale` screen pixels per map unit; "fit" shows the whole sheet in the window.
const sheet = mapSvg.viewBox.baseVal;
const mapBox = $("map");
let fitted = true;
function fitScale() { return Math.min(mapBox.clientWidth / sheet.width, mapBox.clientHeight / sheet.height); }
let scale = fitScale();
function zoomTo(next, focusX = mapBox.clientWidth / 2, focusY = mapBox.clientHeight / 2) {
  // Keep the map point under (focusX, focusY) of the map's box where it is.
  const fit = fitScale();
  next = Math.min(Math.max(next, fit * 0.5, 0.05), Math.max(fit * 12, 8));
  const mapX = (mapBox.scrollLeft + focusX) / scale, mapY = (mapBox.scrollTop + focusY) / scale;
  scale = next;
  mapSvg.style.width = `${sheet.width * scale}px`;
  mapSvg.style.height = `${sheet.height * scale}px`;
  mapBox.scrollLeft = mapX * scale - focusX;
  mapBox.scrollTop = mapY * scale - focusY;
  document.body.dataset.zoom = scale.toFixed(4);
}
function fit() {
  fitted = true;
  zoomTo(fitScale());
  zoomTo(fitScale());  // again: the scroll bars the bigger map needed are gone now, and with them less room
}
$("zoom-in").addEventListener("click", () => { fitted = false; zoomTo(scale * 1.4); });
$("zoom-out").addEventListener("click", () => { fitted = false; zoomTo(scale / 1.4); });
$("zoom-fit").addEventListener("click", fit);
mapBox.addEventListener("wheel", (event) => {  // Ctrl + wheel (or a pinch) zooms at the pointer; the wheel alone scrolls
  if (!event.ctrlKey) return;
  event.preventDefault();
  const box = mapBox.getBoundingClientRect();
  fitted = false;
  zoomTo(scale * Math.exp(-event.deltaY / 300), event.clientX - box.left, event.clientY - box.top);
}, {passive: false});
window.addEventListener("resize", () => { if (fitted) fit(); });
// The whole map in the window, unless its hexes would be too small to read a counter: then that size, scrolled.
const READABLE_HEX = 56;  // pixels across a hex, corner to corner
fit();
if (scale * 2 * layout.unit < READABLE_HEX) { fitted = false; zoomTo(READABLE_HEX / (2 * layout.unit), 0, 0); }

refresh().catch((error) => say(error.message));
