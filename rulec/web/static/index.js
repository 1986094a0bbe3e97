// The games list: start a game or load a saved one, then open its board.
"use strict";
async function post(url, body) {
  const response = await fetch(url, {method: "POST", headers: {"content-type": "application/json"}, body});
  const data = await response.json();
  if (!response.ok) throw new Error(data.error);
  return data;
}
for (const form of document.querySelectorAll("form.new-game")) {
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const players = {};
    for (const select of form.querySelectorAll("select[name^=player-]")) players[select.name.slice(7)] = select.value;
    const options = [...form.querySelectorAll("input[name=option]:checked")].map((box) => box.value);
    const seed = Number(form.querySelector("input[name=seed]").value || 0);
    const scenario = form.querySelector("select[name=scenario]")?.value || null;
    try {
      const {id} = await post("/api/games", JSON.stringify({game: form.dataset.game, seed, options, players, scenario}));
      window.location = `/games/${id}`;
    } catch (error) { document.getElementById("message").textContent = error.message; }
  });
}
document.getElementById("load-file").addEventListener("change", async (event) => {
  try {
    const {id} = await post("/api/load", await event.target.files[0].text());
    window.location = `/games/${id}`;
  } catch (error) { document.getElementById("message").textContent = error.message; }
});
