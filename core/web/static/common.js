// What every page of the web table shares: cards drawn as a player reads them, requests.
"use strict";

const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const RANKS = { A: "A", T: "10", K: "K", Q: "Q", J: "J", "9": "9", "8": "8", "7": "7",
  "6": "6", "5": "5", "4": "4", "3": "3", "2": "2" };

function el(tag, attrs, ...children) {
  // A DOM element; text is always set as text, never parsed as HTML.
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value !== undefined && value !== null && value !== false) node.setAttribute(key, value);
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    node.append(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return node;
}

function cardParts(token) {
  // "QS" -> {rank: "Q", suit: "S"}; anything else -> null.
  const match = /^([AKQJT2-9])([SHDC])$/.exec(token || "");
  return match ? { rank: match[1], suit: match[2] } : null;
}

function cardName(token) {
  const parts = cardParts(token);
  return parts ? `${RANKS[parts.rank]} of ${SUIT_NAMES[parts.suit]}` : token;
}

function cardText(token) {
  // "QS" -> "Q♠", "TH" -> "10♥": for running text.
  const parts = cardParts(token);
  return parts ? RANKS[parts.rank] + SUITS[parts.suit] : token;
}

function cardsInText(text) {
  // Every card token in a line of text written with its suit symbol; the notation's marks
  // of a card on the table (AD*) or the partner's (QS@) are the notation's, not words.
  return String(text).replace(/\b([AKQJT2-9])([SHDC])\b[*@]?/g, (_, r, s) => RANKS[r] + SUITS[s]);
}

function cardFace(token, tag, extra) {
  // A card drawn: its rank over its suit, coloured by suit, named in full for screen readers.
  const parts = cardParts(token);
  const node = el(tag || "span", Object.assign({ class: "card" + (parts ? " " + parts.suit : ""),
    title: cardName(token), "aria-label": cardName(token), "data-card": token }, extra || {}));
  if (parts) {
    node.append(el("span", { text: RANKS[parts.rank] }), el("span", { class: "suit", text: SUITS[parts.suit] }));
  } else {
    node.textContent = token;
  }
  return node;
}

async function requestJson(url, options) {
  // A JSON request; a refusal is thrown as an Error with the server's words.
  const answer = await fetch(url, options);
  const data = await answer.json().catch(() => ({ error: `the server answered ${answer.status}` }));
  if (!answer.ok) throw new Error(data.error || `the server answered ${answer.status}`);
  return data;
}

function postJson(url, body) {
  return requestJson(url, { method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body) });
}
