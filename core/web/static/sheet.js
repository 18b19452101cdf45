// The score sheet: a new sheet set up, then its entries made, fixed and undone at the table.
"use strict";

const $ = (id) => document.getElementById(id);
let variants = [];
let sheet = null;
let fixing = null; // the number of the entry being fixed, or null
const sheetId = decodeURIComponent(location.pathname.split("/")[2] || "");
const token = location.hash.slice(1);

// --- a new sheet ------------------------------------------------------------------

function showNames() {
  const found = variants.find((v) => v.name === $("variant").value);
  const players = found ? found.players : 2;
  $("summary").textContent = found ? found.plain_summary : "";
  $("names").replaceChildren(...Array.from({ length: players }, (_, n) =>
    el("label", {}, `Player ${n + 1} `,
      el("input", { "data-name": n, maxlength: 40, size: 16, value: `player ${n + 1}`, oninput: showDealers }))));
  showDealers();
}

function names() {
  return Array.from(document.querySelectorAll("#names input")).map((input) => input.value.trim());
}

function showDealers() {
  const chosen = $("dealer").value;
  $("dealer").replaceChildren(...names().map((name, n) => el("option", { value: n, text: name || `player ${n + 1}` })));
  if (chosen && Number(chosen) < names().length) $("dealer").value = chosen;
}

async function create() {
  $("create-problems").textContent = "";
  const body = { variant: $("variant").value, players: names(), first_dealer: Number($("dealer").value) };
  const house = $("house").value.trim();
  if (house) body.house = house;
  try {
    const made = await postJson("/api/sheets", body);
    location.assign(made.url);
  } catch (error) {
    $("create-problems").textContent = error.message;
  }
}

async function newSheet() {
  $("new-sheet").hidden = false;
  variants = await requestJson("/api/variants");
  // as the lobby lists them: a house rule told from its parent, no source codes
  $("variant").replaceChildren(...variants.map((v) => el("option", { value: v.name, text: v.label })));
  $("variant").value = variants.some((v) => v.name === "ordinary") ? "ordinary" : variants[0].name;
  $("variant").addEventListener("change", showNames);
  $("create").addEventListener("click", create);
  showNames();
}

// --- a sheet ----------------------------------------------------------------------

function kindOf(key) {
  return sheet.names.find((n) => n.key === key);
}

function chosenKind() {
  return sheet.names[Number($("name").value)];
}

function showKindFields() {
  const kind = chosenKind();
  $("count-box").hidden = !(kind && kind.per_card);
  $("cards-box").hidden = !(kind && kind.cards);
}

function showTotals() {
  $("heading").textContent = `${sheet.title}: ${sheet.players.join(", ")}`;
  $("scores").replaceChildren(...sheet.sides.map((side, n) =>
    el("div", { class: "total", "data-side": n }, el("span", { class: "name", text: side + " " }),
      el("strong", { text: String(sheet.scores[n]) }))));
  $("result").textContent = sheet.over
    ? (sheet.winner ? `${sheet.winner} won the game` : "the game is drawn") : "the game goes on";
  const head = el("tr", {}, el("th", { text: "hand" }), ...sheet.sides.map((s) => el("th", { text: s })));
  const rows = sheet.hands.map((points, hand) =>
    el("tr", {}, el("td", { text: String(hand + 1) }), ...points.map((p) => el("td", { class: "n", text: String(p) }))));
  $("hands").replaceChildren(el("thead", {}, head), el("tbody", {}, ...rows));
}

function entryWords(entry) {
  if (entry.entry.kind === "trumps") return `trumps: ${SUIT_NAMES[entry.entry.suit] || entry.entry.suit}`;
  return cardsInText(entry.words);
}

function showEntries() {
  $("entries").replaceChildren(...sheet.entries.map((entry) => {
    // what it scored, as the terminal's sheet says it (the server's words)
    const item = el("li", { "data-entry": entry.number },
      el("span", { text: `hand ${entry.hand}: ${entryWords(entry)}${entry.said}` }));
    if (entry.checks.length) {
      item.append(el("details", {}, el("summary", { text: "checked" }),
        el("ul", {}, ...entry.checks.map((c) => el("li", { text: c })))));
    }
    if (token && (entry.entry.kind === "score" || entry.entry.kind === "penalty")) {
      item.append(el("button", { text: "fix", "aria-label": `fix entry ${entry.number}`, onclick: () => startFix(entry) }));
    }
    return item;
  }));
  $("entries").lastElementChild?.scrollIntoView({ block: "nearest" });
}

function showForm() {
  const player = $("player").value;
  $("player").replaceChildren(...sheet.players.map((name, n) => el("option", { value: n, text: name })));
  if (player) $("player").value = player;
  const name = $("name").value;
  $("name").replaceChildren(...sheet.names.map((kind, n) =>
    el("option", { value: n, text: `${kind.name} (${kind.points}${kind.per_card ? " each" : ""})` })));
  if (name) $("name").value = name;
  $("suit").replaceChildren(...sheet.suits.map((s) => el("option", { value: s, text: `${SUITS[s] || ""} ${SUIT_NAMES[s] || s}` })));
  showKindFields();
  showPenaltyForm();
}

const CLAIMS = { add: "added to the injured player's score", deduct: "taken off the offender's score" };

function keepChoice(id, options) {
  const kept = $(id).value;
  $(id).replaceChildren(...options);
  if (kept && options.some((o) => o.value === kept)) $(id).value = kept;
}

function showPenaltyForm() {
  $("penalty-box").hidden = !sheet.penalties.length;
  if (!sheet.penalties.length) return;
  keepChoice("offender", sheet.players.map((name, n) => el("option", { value: n, text: name })));
  keepChoice("penalty", sheet.penalties.map((offer, n) =>
    el("option", { value: n, text: `${offer.words} (${offer.points})` })));
  showPenaltyChoices();
}

function showPenaltyChoices() {
  const offer = sheet.penalties[Number($("penalty").value)];
  keepChoice("option", offer.options.map((o) => el("option", { value: o, text: CLAIMS[o] || o })));
  const offender = Number($("offender").value);
  const others = sheet.players.map((_, n) => n).filter((n) => sheet.side_of[n] !== sheet.side_of[offender]);
  keepChoice("claimant", others.map((n) => el("option", { value: String(n), text: sheet.players[n] })));
  $("claimant-box").hidden = sheet.players.length <= 2;
}

async function enterPenalty() {
  const offer = sheet.penalties[Number($("penalty").value)];
  const entry = { kind: "penalty", player: Number($("offender").value), name: offer.name, option: $("option").value };
  if (sheet.players.length > 2) entry.claimant = Number($("claimant").value);
  if (fixing !== null) {
    if (await send(`fix/${fixing}`, entry)) endFix();
  } else {
    await send("entries", entry);
  }
}

function show(view) {
  sheet = view;
  for (const id of ["totals", "entries-box", "files"]) $(id).hidden = false;
  $("entry-form").hidden = !token;
  showTotals();
  showEntries();
  if (token) showForm();
  const base = `/api/sheets/${encodeURIComponent(sheet.id)}/download/`;
  $("get-json").href = base + "json";
  $("get-csv").href = base + "csv";
  $("get-html").href = base + "html";
  $("view-link").href = `/sheet/${encodeURIComponent(sheet.id)}`;
}

function scoreEntry(kind) {
  const entry = { kind: "score", player: Number($("player").value), name: kind.name };
  if (kind.per_card) entry.count = Number($("count").value || "0");
  const cards = $("cards").value.toUpperCase().split(/[\s,]+/).filter(Boolean);
  if (kind.cards && cards.length) entry.cards = cards;
  return entry;
}

async function send(path, body) {
  $("status").textContent = "";
  $("status").classList.remove("refused");
  try {
    const answer = await requestJson(`/api/sheets/${encodeURIComponent(sheetId)}/${path}`, {
      method: "POST", headers: { "Content-Type": "application/json", "X-Sheet-Token": token },
      body: JSON.stringify(body || {}) });
    show(answer);
    return true;
  } catch (error) {
    $("status").textContent = `refused: ${error.message}`;
    $("status").classList.add("refused");
    return false;
  }
}

async function enter() {
  const entry = scoreEntry(chosenKind());
  if (fixing !== null) {
    if (await send(`fix/${fixing}`, entry)) endFix();
  } else if (await send("entries", entry)) {
    $("cards").value = "";
  }
}

function startFix(entry) {
  fixing = entry.number;
  $("form-title").textContent = `Fix entry ${entry.number}`;
  $("cancel-fix").hidden = false;
  if (entry.entry.kind === "penalty") { startPenaltyFix(entry.entry); return; }
  $("player").value = entry.entry.player;
  const kind = sheet.names.findIndex((k) => k.name === entry.entry.name || k.key === entry.entry.name);
  if (kind >= 0) $("name").value = kind;
  $("count").value = entry.entry.count ?? 1;
  $("cards").value = (entry.entry.cards || []).join(" ");
  showKindFields();
  $("entry-form").scrollIntoView({ block: "start" });
}

// A penalty being fixed: its choices set in the penalty form, which then sends the fix.
function startPenaltyFix(penalty) {
  $("offender").value = penalty.player;
  const offer = sheet.penalties.findIndex((o) => o.name === penalty.name);
  if (offer >= 0) $("penalty").value = offer;
  showPenaltyChoices();
  if (penalty.option) $("option").value = penalty.option;
  if (penalty.claimant !== undefined) $("claimant").value = String(penalty.claimant);
  $("penalty-box").scrollIntoView({ block: "start" });
}

function endFix() {
  fixing = null;
  $("form-title").textContent = "Enter a score";
  $("cancel-fix").hidden = true;
  $("cards").value = "";
}

function chooseBrisques() {
  const found = sheet.names.findIndex((k) => k.key === "brisques");
  if (found < 0) { $("status").textContent = "this variant scores no brisques"; return; }
  $("name").value = found;
  showKindFields();
  $("count").focus();
  $("count").select();
}

async function lastTrick() {
  const kind = kindOf("last_trick");
  if (!kind) { $("status").textContent = "this variant scores nothing for the last trick"; return; }
  await send("entries", scoreEntry(kind));
}

async function openSheet() {
  try {
    show(await requestJson(`/api/sheets/${encodeURIComponent(sheetId)}`));
  } catch (error) {
    $("problems").textContent = error.message;
    return;
  }
  $("name").addEventListener("change", showKindFields);
  $("enter").addEventListener("click", enter);
  $("cancel-fix").addEventListener("click", endFix);
  $("brisques").addEventListener("click", chooseBrisques);
  $("last-trick").addEventListener("click", lastTrick);
  $("stock-gone").addEventListener("click", () => send("entries", { kind: "stock_gone" }));
  $("hand-over").addEventListener("click", () => send("entries", { kind: "hand_end" }));
  $("trumps").addEventListener("click", () => send("entries", { kind: "trumps", suit: $("suit").value }));
  $("undo").addEventListener("click", () => { endFix(); send("undo"); });
  $("offender").addEventListener("change", showPenaltyChoices);
  $("penalty").addEventListener("change", showPenaltyChoices);
  $("enter-penalty").addEventListener("click", enterPenalty);
}

document.addEventListener("DOMContentLoaded", () => {
  (sheetId ? openSheet() : newSheet()).catch((error) => { $("problems").textContent = error.message; });
});
