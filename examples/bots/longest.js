#!/usr/bin/env node
// The built-in `longest` bot of hokm-sim as a hokm-bot/1 protocol bot: Node.js, no packages.
//
//   hokm-sim run "exec:node examples/bots/longest.js" expert --hands 20000 --seed 5
//
// Trump: the longest suit among the Hakem's five cards; ties go to the higher
// rank sum (2 counts 0 ... A counts 12), then to the lower suit (C D H S).
// Play: lead an off-trump ace, else the lowest card of the longest side suit
// (holding only trumps, the lowest trump); follow low when partner is winning,
// else with the cheapest card that beats the trick; void, ruff with the
// cheapest winning trump unless partner is winning, else discard the
// lowest-ranked side card.
//
// One JSON object per line in, one per line out. Each request is answered on
// its own: everything the seat knows is in it.

"use strict";
const readline = require("readline");

const RANKS = "23456789TJQKA";
const SUITS = "CDHS";

// A card as a number: suit * 13 + rank (2..A = 0..12), as hokm-sim numbers them.
const card = (text) => SUITS.indexOf(text[1]) * 13 + RANKS.indexOf(text[0]);
const text = (c) => RANKS[c % 13] + SUITS[Math.floor(c / 13)];
const suitOf = (c) => Math.floor(c / 13);
const rankOf = (c) => c % 13;
const lowest = (cards) => Math.min(...cards); // lowest suit, then lowest rank
const lowestByRank = (cards) => cards.reduce((a, b) => (rankOf(b) < rankOf(a) || (rankOf(b) === rankOf(a) && b < a) ? b : a));
const ofSuit = (cards, s) => cards.filter((c) => suitOf(c) === s);

// Whether `c` beats `best`, the card winning the trick so far.
function beats(c, best, trump) {
  if (suitOf(c) === suitOf(best)) return c > best;
  return suitOf(c) === trump;
}

function chooseTrump(five) {
  let best = 0, bestN = -1, bestSum = -1;
  for (let s = 0; s < 4; s++) {
    const cards = ofSuit(five, s);
    const sum = cards.reduce((t, c) => t + rankOf(c), 0);
    if (cards.length > bestN || (cards.length === bestN && sum > bestSum)) {
      best = s; bestN = cards.length; bestSum = sum;
    }
  }
  return best;
}

function lead(hand, trump) {
  const side = hand.filter((c) => suitOf(c) !== trump);
  const aces = side.filter((c) => rankOf(c) === 12);
  if (aces.length) return lowest(aces);
  if (!side.length) return lowest(hand);
  let best = -1, bestLen = 0;
  for (let s = 0; s < 4; s++) {
    const n = s === trump ? 0 : ofSuit(hand, s).length;
    if (n > bestLen) { best = s; bestLen = n; }
  }
  return lowest(ofSuit(hand, best));
}

// The current trick from every card played so far: its cards, and who is winning it.
function currentTrick(plays, hakem, trump) {
  let leader = hakem;
  const done = plays.length - (plays.length % 4);
  for (let t = 0; t < done; t += 4) {
    let best = 0;
    for (let k = 1; k < 4; k++) if (beats(plays[t + k], plays[t + best], trump)) best = k;
    leader = (leader + best) % 4;
  }
  const trick = plays.slice(done);
  let best = 0;
  for (let k = 1; k < trick.length; k++) if (beats(trick[k], trick[best], trump)) best = k;
  return { trick, winCard: trick[best], winSeat: (leader + best) % 4 };
}

function playCard(r) {
  const hand = r.hand.map(card);
  const trump = SUITS.indexOf(r.trump);
  const { trick, winCard, winSeat } = currentTrick(r.plays.map(card), r.hakem, trump);
  if (!trick.length) return lead(hand, trump);
  const led = suitOf(trick[0]);
  const partnerWins = winSeat === (r.seat + 2) % 4;
  const follow = ofSuit(hand, led);
  if (follow.length) {
    if (!partnerWins && suitOf(winCard) === led) {
      const higher = follow.filter((c) => c > winCard);
      if (higher.length) return lowest(higher);
    }
    return lowest(follow);
  }
  if (!partnerWins) {
    const trumps = ofSuit(hand, trump);
    const winning = suitOf(winCard) === trump ? trumps.filter((c) => c > winCard) : trumps;
    if (winning.length) return lowest(winning);
  }
  const side = hand.filter((c) => suitOf(c) !== trump);
  return lowestByRank(side.length ? side : hand);
}

function answer(r) {
  if (r.kind === "trump") return { id: r.id, suit: SUITS[chooseTrump(r.hand.map(card))] };
  return { id: r.id, card: text(playCard(r)) };
}

const out = (msg) => process.stdout.write(JSON.stringify(msg) + "\n");
const lines = readline.createInterface({ input: process.stdin, terminal: false });
lines.on("line", (line) => {
  const msg = JSON.parse(line);
  if (msg.type === "hello") out({ type: "hello", protocol: "hokm-bot/1", name: "longest.js", version: "1" });
  else if (msg.type === "decide") out({ type: "answers", answers: msg.requests.map(answer) });
  else if (msg.type === "bye") process.stdout.write(JSON.stringify({ type: "bye" }) + "\n", () => process.exit(0));
  else out({ type: "error", message: `unknown message type ${JSON.stringify(msg.type)}` });
});
