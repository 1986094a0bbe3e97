// A map-less battle: the exact odds of the two forces, then the battle shown one combat at a time.
"use strict";
const $ = (id) => document.getElementById(id);
let lines = [], shown = 0;

function showUntilNextCombat() {
  let end = shown + 1;
  while (end < lines.length && !/^(Combat \d|Casualty points)/.test(lines[end])) end++;
  shown = end;
  $("battle-lines").textContent = lines.slice(0, shown).join("\n");
  $("next").hidden = shown >= lines.length;
  document.body.dataset.shown = shown;
}

$("battle-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const body = {game: document.body.dataset.game, sides: [$("side-0").value, $("side-1").value],
                seed: Number($("seed").value || 0), skirmish: $("skirmish").checked};
  const response = await fetch("/api/battle", {method: "POST", headers: {"content-type": "application/json"}, body: JSON.stringify(body)});
  const data = await response.json();
  if (!response.ok) { $("message").textContent = data.error; return; }
  $("message").textContent = "";
  const odds = $("odds");
  const heading = document.createElement("h2"); heading.textContent = `Odds (${data.odds.method})`;
  odds.replaceChildren(heading);
  const table = document.createElement("table"); table.className = "odds"; table.id = "battle-odds";
  for (const [result, p] of Object.entries(data.odds.winner)) {
    const row = table.insertRow(); row.dataset.result = result; row.dataset.percent = (100 * p).toFixed(2);
    row.insertCell().textContent = result; row.insertCell().textContent = `${(100 * p).toFixed(2)}%`;
  }
  odds.appendChild(table);
  for (const [side, states] of Object.entries(data.odds.army_states)) {
    const p = document.createElement("p");
    p.textContent = `${side} army state: ` + Object.entries(states).map(([s, v]) => `${s} ${(100 * v).toFixed(1)}%`).join(", ");
    odds.appendChild(p);
  }
  lines = data.text; shown = 0;
  showUntilNextCombat();
});
$("next").addEventListener("click", showUntilNextCombat);
