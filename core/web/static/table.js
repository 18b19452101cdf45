// A seat at a table: its view drawn, its moves sent over the table's socket.
"use strict";

const tableId = decodeURIComponent(window.location.pathname.split("/").pop());
const token = window.location.hash.slice(1);
let socket = null;
let view = null;
let values = {};
let retry = 500;
let waiting = false;  // a move sent and not yet answered: a second click sends nothing

function say(text, refused) {
  const status = document.getElementById("status");
  status.textContent = cardsInText(text);
  status.className = "status" + (refused ? " refused" : "");
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) { socket.send(JSON.stringify(message)); return true; }
  say("Not connected: reconnecting…", true);
  return false;
}

function act(move) {
  // A move's id stands for a move of the view it was drawn from: one move a view, so a
  // double click (or a click before the next view came) never sends a stale id.
  if (waiting) return;
  values = {};
  waiting = send({ act: move, at: view.moves });
}

// A name marked as the reader's own, unless the name says so already ("you").
function markedYours(name) {
  return name.split(" + ").includes("you") ? name : `${name} (you)`;
}

function seatName(seat) {
  return seat === view.seat ? markedYours(view.names[seat]) : view.names[seat];
}

function partnerMark(seat) {
  // In a partnership the partner's seat says so: the bots' names alone may not tell.
  return view.scores.side_of[seat] === view.scores.your_side ? " (your partner)" : "";
}

function drawTable() {
  const seen = view.observation;
  document.getElementById("title").textContent = view.title;
  document.title = `${view.title}: Bezique`;
  document.getElementById("rules").href = `/tables/${encodeURIComponent(tableId)}/rules`;
  document.getElementById("trump").textContent = seen.trump ? `${SUITS[seen.trump]} ${SUIT_NAMES[seen.trump]}` : "none yet";
  document.getElementById("turn-up").replaceChildren(seen.turn_up ? cardFace(seen.turn_up, "span", { class: "card small " + (cardParts(seen.turn_up) || {}).suit }) : "none");
  document.getElementById("stock").textContent = seen.stock;
  const others = document.getElementById("others");
  others.replaceChildren(...view.names.map((_, seat) => seat).filter((seat) => seat !== view.seat).map((seat) => {
    const row = el("div", { class: "seat" + (view.to_act === seat ? " to-act" : "") },
      el("span", { class: "name" + (view.thinking === seat ? " thinking" : ""), text: seatName(seat) + partnerMark(seat) + (view.thinking === seat ? " is thinking" : "") }),
      el("span", { text: ` holds ${seen.hand_sizes[seat]} cards` }));
    const declared = view.table_cards[seat];
    if (declared.length) row.append(el("div", { class: "cards", "aria-label": "declared cards" }, ...declared.map(declaredCard)));
    return row;
  }));
  const places = document.getElementById("places");
  places.replaceChildren(...view.places.filter((p) => p.cards.length).map((p) =>
    el("div", { class: "seat" }, el("div", { class: "name", text: p.name }),
      el("div", { class: "cards" }, ...p.cards.map(declaredCard)))));
  const trick = document.getElementById("trick");
  // each card under its player's name, wrapped within its slot (in full when pointed at)
  trick.replaceChildren(...seen.trick.map(([seat, token]) => el("div", { class: "played" },
    el("div", { class: "muted who", text: seatName(seat), title: seatName(seat) }), cardFace(token))));
  if (!seen.trick.length) trick.append(el("span", { class: "muted", text: "no card played yet" }));
  document.getElementById("last-trick").textContent = view.last_trick ? "Last trick: " + cardsInText(view.last_trick) : "";
}

function declaredCard(item) {
  const face = cardFace(item.card, "span", { class: "card small " + ((cardParts(item.card) || {}).suit || "") });
  if (item.declared) face.title = `${cardName(item.card)}: declared in ${item.declared}`;
  return face;
}

function drawHand() {
  const plays = new Map(view.legal.filter((a) => a.kind === "play").map((a) => [a.card, a]));
  const hand = document.getElementById("hand");
  hand.replaceChildren(...view.hand.map((item) => {
    // a card on the table is played as such (play AD*): its move is found by its token
    const move = plays.get(item.token);
    const button = cardFace(item.card, "button", {
      class: "card " + ((cardParts(item.card) || {}).suit || "") + (move ? " legal" : " illegal"),
      disabled: !move, "data-token": item.token,
      onclick: () => move && act(move.id),
    });
    if (move && values[move.text] !== undefined) button.append(el("span", { class: "value", text: valueText(values[move.text]) }));
    return button;
  }));
  const own = document.getElementById("own-table");
  const mine = view.table_cards[view.seat];
  own.replaceChildren(...(mine.length ? [el("div", { class: "muted", text: "Your cards on the table (declared):" }),
    el("div", { class: "cards" }, ...mine.map(declaredCard))] : []));
  const others = view.legal.filter((a) => a.kind !== "play");
  document.getElementById("actions").replaceChildren(...others.map((a) => {
    const button = el("button", { onclick: () => act(a.id), title: a.text, "data-action": a.text,
      onmouseenter: () => mark(a.cards), onmouseleave: () => mark([]), onfocus: () => mark(a.cards), onblur: () => mark([]) },
      cardsInText(capital(a.words)));
    if (a.points !== undefined) {
      const when = a.later ? ", scored at a trick you win" : "";
      button.append(el("span", { class: "points", text: `${a.points} points${when}` }));
    }
    if (values[a.text] !== undefined) button.append(el("span", { class: "value", text: " " + valueText(values[a.text]) }));
    return button;
  }));
}

function mark(cards) {
  // The cards a declaration names, marked in the hand and on the table while it is pointed at.
  const wanted = (cards || []).slice();
  for (const face of document.querySelectorAll("#hand .card, #own-table .card")) {
    const at = wanted.indexOf(face.dataset.card);
    face.classList.toggle("marked", at >= 0);
    if (at >= 0) wanted.splice(at, 1);
  }
}

function valueText(value) {
  if (typeof value === "number" && Math.abs(value) >= 1000000) return value > 0 ? "wins" : "loses";
  if (Array.isArray(value)) return `≈${value[0].toFixed(0)}±${value[1].toFixed(0)}`;
  return (value > 0 ? "+" : "") + value;
}

function capital(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

function drawScores() {
  const scores = view.scores;
  const sides = scores.game.map((_, side) => view.names.filter((_, seat) => scores.side_of[seat] === side).join(" + "));
  const sheet = document.getElementById("sheet");
  sheet.replaceChildren(el("tr", {}, el("th", { text: "" }), el("th", { text: "this hand" }), el("th", { text: "game" })),
    ...sides.map((name, side) => el("tr", {}, el("td", { text: side === scores.your_side ? markedYours(name) : name }),
      el("td", { class: "n", text: String(scores.hand[side]) }), el("td", { class: "n", text: String(scores.game[side]) }))));
  document.getElementById("score-line").textContent = sides.map((name, side) => `${name} ${scores.game[side]}`).join(" · ") +
    (view.target ? ` (game to ${view.target})` : " (one deal)");
  document.getElementById("hand-scores").replaceChildren(...scores.events.map((e) =>
    el("tr", {}, el("td", { text: view.names[e.seat] }), el("td", { class: "n", text: (e.points > 0 ? "+" : "") + e.points }),
      el("td", { text: cardsInText(e.why) }))));
  const log = document.getElementById("log");
  log.replaceChildren(...view.log.map((line) => el("li", { text: cardsInText(line) })));
  log.scrollTop = log.scrollHeight;
}

function drawStatus() {
  if (view.over) {
    const won = view.scores.winner;
    const names = view.names.filter((_, seat) => view.scores.side_of[seat] === won).join(" + ");
    say(won >= 0 ? `The game is over: ${names} won.` : "The game is over: a drawn game.");
  } else if (view.to_act === view.seat) {
    say(`Your move: ${view.phase}.`);
  } else if (view.thinking >= 0) {
    say(`${view.names[view.thinking]} is thinking…`);
  } else {
    say(`Waiting for ${view.names[view.to_act]}.`);
  }
  document.getElementById("over").hidden = !view.over;
  // the game over, there is no move to type or to value: only the record and a new table
  document.getElementById("move-controls").hidden = view.over;
  document.getElementById("values-note").hidden = view.over;
  document.getElementById("values").disabled = view.to_act !== view.seat;
}

function draw() {
  drawTable();
  drawHand();
  drawScores();
  drawStatus();
}

function showReview(items) {
  const list = document.getElementById("review-list");
  drawStatus();  // "Reviewing your play…" is over: the status says the game's again
  if (!items.length) { list.replaceChildren(el("li", { text: "The bot would have played as you did at every move it looked at." })); return; }
  // each move found as the log counts: its hand and trick; told in the past
  list.replaceChildren(...items.map((item) => el("li", { text: cardsInText(
    `${capital(item.when)}: you ${item.played_words}; the bot would have chosen to ${item.bot_words} (about ${item.cost.toFixed(0)} points better, ±${item.error.toFixed(0)})`) })));
}

function receive(event) {
  const message = JSON.parse(event.data);
  if (message.kind === "view" || message.kind === "refused" || message.kind === "error") waiting = false;
  if (message.kind === "view") {
    view = message;
    draw();
  } else if (message.kind === "refused") {
    say(message.message, true);
  } else if (message.kind === "values") {
    values = message.values;
    document.getElementById("values-note").textContent = message.exact
      ? "Exact values under best play by both sides (points for your side, minus the other's, to the end of the hand)."
      : "Estimates by the search bot from what you can see (points, ± one standard error).";
    drawHand();
    drawStatus();  // "Working out the values…" is over: the status says the move again
  } else if (message.kind === "review") {
    showReview(message.items);
  } else if (message.kind === "error") {
    say(message.message, true);
    retry = 0;
  }
}

function connect() {
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${window.location.host}/ws/${encodeURIComponent(tableId)}`);
  socket.addEventListener("open", () => { retry = 500; socket.send(JSON.stringify({ token })); });
  socket.addEventListener("message", receive);
  socket.addEventListener("close", () => {
    waiting = false;
    if (retry === 0) return;
    say("Connection lost: reconnecting…", true);
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  });
}

async function download() {
  try {
    const answer = await fetch(`/api/tables/${encodeURIComponent(tableId)}/record`, { headers: { "X-Seat-Token": token } });
    const data = await answer.json();
    if (!answer.ok) throw new Error(data.error);
    const link = el("a", { href: URL.createObjectURL(new Blob([JSON.stringify(data, null, 1)], { type: "application/json" })),
      download: `bezique-${tableId}.json` });
    document.body.append(link);
    link.click();
    link.remove();
  } catch (error) {
    say(error.message, true);
  }
}

function typed() {
  const entry = document.getElementById("entry");
  const text = entry.value.trim();
  if (!text) return;
  entry.value = "";
  act(text);
}

document.getElementById("send").addEventListener("click", typed);
document.getElementById("entry").addEventListener("keydown", (event) => { if (event.key === "Enter") typed(); });
document.getElementById("values").addEventListener("click", () => { say("Working out the values…"); send({ ask: "values" }); });
document.getElementById("review").addEventListener("click", () => { say("Reviewing your play…"); send({ ask: "review" }); });
document.getElementById("download").addEventListener("click", download);
if (!token) say("This link has no seat token: ask for your seat's link.", true);
else connect();
