// The lobby: choose a variant (or paste house rules), the seats and a deal; open the table.
"use strict";

let bots = [];  // the server's: each {spec, words}
let variants = [];

function seatRow(number, kind) {
  const choice = el("select", { "data-seat": number, "aria-label": `seat ${number + 1}` },
    el("option", { value: "you", text: "you" }),
    el("option", { value: "friend", text: "a friend (gets a link)" }),
    ...bots.map((bot) => el("option", { value: "bot:" + bot.spec, text: bot.words })));
  choice.value = kind;
  const name = el("input", { "data-name": number, placeholder: "name (optional)", size: 14, maxlength: 40 });
  return el("div", { class: "row seat" }, el("span", { text: `Seat ${number + 1}` }), choice, name);
}

function showSeats() {
  const found = variants.find((v) => v.name === document.getElementById("variant").value);
  const players = found ? found.players : 2;
  const box = document.getElementById("seats");
  box.replaceChildren(...Array.from({ length: players }, (_, n) => seatRow(n, n === 0 ? "you" : "bot:" + bots[0].spec)));
  document.getElementById("summary").textContent = found ? found.plain_summary : "";
  document.getElementById("rules-link").href = "/rules/" + encodeURIComponent(found ? found.name : "ordinary");
}

function seats() {
  return Array.from(document.querySelectorAll("#seats select")).map((choice, n) => {
    const name = document.querySelector(`[data-name="${n}"]`).value.trim();
    if (choice.value.startsWith("bot:")) return { kind: "bot", spec: choice.value.slice(4), name };
    return { kind: "human", name: name || (choice.value === "you" ? `player ${n + 1}` : `friend ${n + 1}`) };
  });
}

async function start() {
  const problems = document.getElementById("problems");
  problems.textContent = "";
  const house = document.getElementById("house").value.trim();
  const seedText = document.getElementById("seed").value.trim();
  const body = { variant: document.getElementById("variant").value, seats: seats() };
  if (house) body.house = house;
  if (document.getElementById("referee").checked) body.referee = true;
  if (seedText) {
    if (!/^\d{1,18}$/.test(seedText)) { problems.textContent = "The deal number is a whole number."; return; }
    body.seed = Number(seedText);
  }
  try {
    const made = await postJson("/api/tables", body);
    const kinds = Array.from(document.querySelectorAll("#seats select")).map((c) => c.value);
    const mine = made.seats.find((s) => kinds[s.seat] === "you") || made.seats[0];
    const friends = made.seats.filter((s) => s !== mine);
    if (!friends.length) { window.location.assign(mine.url); return; }
    const box = document.getElementById("links");
    box.replaceChildren(el("h2", { text: "Send each friend the link of their seat" }),
      ...friends.map((s) => el("label", {}, `${s.name}: `,
        el("input", { readonly: true, value: new URL(s.url, window.location.href).href }))),
      el("p", {}, el("a", { href: mine.url, text: "Go to your seat", class: "primary" })));
  } catch (error) {
    problems.textContent = error.message;
  }
}

async function uploadRecord(event) {
  const file = event.target.files[0];
  const problems = document.getElementById("record-problems");
  problems.textContent = "";
  if (!file) return;
  try {
    const made = await postJson("/api/records", { record: await file.text() });
    window.location.assign(made.url);
  } catch (error) {
    problems.textContent = error.message;
  }
}

function followHouse() {
  // House rules that extend a listed variant: its seats, so that they add up.
  const match = /^extends:\s*["']?([a-z][a-z0-9_-]*)/m.exec(document.getElementById("house").value);
  const choice = document.getElementById("variant");
  if (match && variants.some((v) => v.name === match[1]) && choice.value !== match[1]) {
    choice.value = match[1];
    showSeats();
  }
}

async function load() {
  [variants, bots] = await Promise.all([requestJson("/api/variants"), requestJson("/api/bots")]);
  const choice = document.getElementById("variant");
  choice.replaceChildren(...variants.map((v) => el("option", { value: v.name, text: `${v.label} (${v.players} players)` })));
  choice.value = "ordinary";
  choice.addEventListener("change", showSeats);
  showSeats();
  document.getElementById("start").addEventListener("click", start);
  document.getElementById("record-file").addEventListener("change", uploadRecord);
  document.getElementById("house-file").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    if (file) document.getElementById("house").value = await file.text();
    followHouse();
  });
  document.getElementById("house").addEventListener("input", followHouse);
}

load().catch((error) => { document.getElementById("problems").textContent = error.message; });
