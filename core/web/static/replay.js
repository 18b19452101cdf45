// A record stepped through: back, on, to a trick; one seat's view or every hand.
"use strict";

const recordId = decodeURIComponent(window.location.pathname.split("/").pop());
let step = 0;
let shown = null;

async function show(number) {
  const seat = document.getElementById("seat").value || "all";
  try {
    shown = await requestJson(`/api/records/${encodeURIComponent(recordId)}/step/${number}?seat=${encodeURIComponent(seat)}`);
  } catch (error) {
    document.getElementById("problems").textContent = error.message;
    return;
  }
  step = number;
  draw();
}

function draw() {
  const seen = shown.observation;
  document.getElementById("title").textContent = shown.title;
  document.getElementById("where").textContent = `move ${shown.step} of ${shown.steps}`;
  document.getElementById("move").textContent = shown.step
    ? cardsInText(`${shown.names[Number(lastSeat())] || ""} ${shown.last_words}`.trim())
    : "The deal, before the first move.";
  document.getElementById("trump").textContent = seen.trump ? `${SUITS[seen.trump]} ${SUIT_NAMES[seen.trump]}` : "none";
  document.getElementById("stock").textContent = seen.stock;
  document.getElementById("trick").replaceChildren(...seen.trick.map(([seat, token]) =>
    el("div", {}, el("div", { class: "muted", text: shown.names[seat] }), cardFace(token))));
  document.getElementById("hands").replaceChildren(...Object.entries(shown.hands).map(([seat, cards]) =>
    el("div", { class: "seat" }, el("div", { class: "name", text: shown.names[Number(seat)] }),
      el("div", { class: "cards" }, ...cards.map((item) => cardFace(item.card, "span", { class: "card small " + ((cardParts(item.card) || {}).suit || "") }))))));
  // each side named by its players, as the table names it (a partnership: "Ann + Cy")
  const sides = seen.scores.map((_, side) => shown.names.filter((_, seat) => seen.side_of[seat] === side).join(" + "));
  document.getElementById("scores").textContent = seen.scores.map((points, side) => `${sides[side]} ${points}`).join(" · ");
  const jump = document.getElementById("trick-jump");
  if (jump.options.length !== shown.trick_starts.length + 1) {
    jump.replaceChildren(el("option", { value: "", text: "—" }),
      ...shown.trick_starts.map((at, n) => el("option", { value: String(at), text: String(n + 1) })));
  }
  const seatChoice = document.getElementById("seat");
  if (!seatChoice.options.length) {
    seatChoice.replaceChildren(el("option", { value: "all", text: "every hand" }),
      ...shown.names.map((name, n) => el("option", { value: String(n), text: `${name}'s view` })));
  }
}

function lastSeat() {
  return shown.last_seat === undefined ? -1 : shown.last_seat;
}

async function playOn() {
  const seat = document.getElementById("seat").value;
  const you = seat === "all" || seat === "" ? 0 : Number(seat);
  const seats = shown.names.map((name, n) => (n === you ? { kind: "human", name: "you" } : { kind: "bot", spec: "heuristic" }));
  try {
    const made = await postJson(`/api/records/${encodeURIComponent(recordId)}/play-on`, { step, seats });
    window.location.assign(made.seats[0].url);
  } catch (error) {
    document.getElementById("problems").textContent = error.message;
  }
}

document.getElementById("first").addEventListener("click", () => show(0));
document.getElementById("back").addEventListener("click", () => step > 0 && show(step - 1));
document.getElementById("next").addEventListener("click", () => shown && step < shown.steps && show(step + 1));
document.getElementById("last").addEventListener("click", () => shown && show(shown.steps));
document.getElementById("trick-jump").addEventListener("change", (event) => event.target.value !== "" && show(Number(event.target.value)));
document.getElementById("seat").addEventListener("change", () => show(step));
document.addEventListener("keydown", (event) => {
  if (event.key === "ArrowRight") document.getElementById("next").click();
  if (event.key === "ArrowLeft") document.getElementById("back").click();
});
document.getElementById("play-on").addEventListener("click", playOn);
show(0);
