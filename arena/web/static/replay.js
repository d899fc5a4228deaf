// The replay viewer: draws one step of a recorded game from the replay document
// (arena/web/replay_data.py) embedded in the page. Every piece of text goes in with
// textContent: names, promises and fault reasons were chosen by bots.
"use strict";

(function () {
  const doc = JSON.parse(document.getElementById("replay-data").textContent);
  const $ = (id) => document.getElementById(id);
  const slider = $("slider");
  const sideSelect = $("side");
  const built = {}; // side -> its view at every step, rebuilt once from the patches
  let step = 0;

  // An element with a class and text (never HTML), and children appended.
  function el(tag, cls, text, children) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    for (const child of children || []) if (child) node.appendChild(child);
    return node;
  }

  // Each step's view of a side: the first view, then each patch applied to a copy of the
  // path it changes only (the rest is shared with the step before).
  function views(side) {
    if (built[side]) return built[side];
    const source = doc.views[side];
    const result = [source.first];
    for (const id of source.patches) {
      let view = result[result.length - 1];
      for (const change of doc.patches[id]) {
        const path = change[0];
        const value = change.length === 3 ? doc.values[change[2]] : change[1];
        view = changed(view, path, 0, change.length === 1, value);
      }
      result.push(view);
    }
    built[side] = result;
    return result;
  }

  function changed(node, path, depth, remove, value) {
    if (depth === path.length) return value;
    const copy = Array.isArray(node) ? node.slice() : Object.assign({}, node);
    const key = path[depth];
    if (remove && depth === path.length - 1) delete copy[key];
    else copy[key] = changed(node[key], path, depth + 1, remove, value);
    return copy;
  }

  function seatLabel(seat) {
    const s = doc.seats[seat];
    return s ? "seat " + seat + " " + s.bot : "seat " + seat;
  }

  function seatChip(seat) {
    return el("span", "who seat-" + seat, seatLabel(seat));
  }

  const money = (n) => (n === null || n === undefined ? "?" : "$" + Number(n).toLocaleString("en-US"));
  const words = (code) => String(code).replace(/-/g, " ");

  // ---- the decision bar ------------------------------------------------------------------

  function drawDecision(current) {
    const box = $("decision");
    box.replaceChildren();
    box.className = "decision";
    const d = current.decision;
    if (current.number === 0) {
      box.appendChild(el("span", "what", "The deal: the game as it started."));
    } else if (!d) {
      box.appendChild(el("span", "what", "Decision #" + current.number + " (another seat's: not shown to this seat)."));
    } else {
      box.appendChild(el("span", "number", "#" + current.number));
      box.appendChild(seatChip(d.seat));
      box.appendChild(el("span", "kind", d.kind));
      box.appendChild(el("code", "action", JSON.stringify(d.action)));
      if (d.by_referee) {
        box.classList.add("substituted");
        box.appendChild(el("span", "badge referee", "played by the referee (default action)"));
      } else {
        box.appendChild(el("span", "ms", d.ms.toFixed(1) + " ms"));
      }
    }
    if (current.fault) {
      box.classList.add("faulted");
      box.appendChild(el("span", "badge fault", "fault: " + current.fault.fault + (current.fault.reason ? ": " + current.fault.reason : "")));
    }
  }

  function drawEvents(side) {
    const list = $("events");
    list.replaceChildren();
    const ids = doc.events[side][step];
    const seat = doc.seats[Number(side)];
    const stopped = seat && seat.faulted_at !== null && doc.steps[step].number >= seat.faulted_at;
    const note = $("stopped");
    note.hidden = !stopped;
    note.textContent = stopped ? "Seat " + side + " was stopped at its fault (decision #" + seat.faulted_at + "): from then on it was sent nothing. Shown: what it would have been told." : "";
    if (!ids.length) list.appendChild(el("li", "quiet", "(nothing this side was told)"));
    for (const id of ids) list.appendChild(el("li", null, doc.texts[id]));
  }

  // ---- Corruption ---------------------------------------------------------------------------

  const CORRUPTION_CARDS = {
    "district-attorney": "DA",
    reporter: "Reporter",
    "hit-man": "Hit man",
  };

  function corruptionCard(card, view) {
    const known = Object.prototype.hasOwnProperty.call(card, "card");
    const name = known ? (CORRUPTION_CARDS[card.card] || money(Number(card.card.replace("bribe-", "")))) : "?";
    const classes = ["card", "seat-" + card.owner, card.face_up ? "up" : "down", card.status];
    if (!known) classes.push("hidden");
    const chip = el("span", classes.join(" "), null, [
      el("span", "face", name),
      el("span", "owner", "s" + card.owner + (card.face_up ? "" : " ▼")),
    ]);
    chip.dataset.placement = card.placement;
    chip.title = (card.face_up ? "face up" : "face down") + ", seat " + card.owner + ", " + card.status;
    return chip;
  }

  function handRow(cards, render) {
    return el("div", "hand", null, cards.length ? cards.map(render) : [el("span", "quiet", "empty")]);
  }

  function drawCorruption(view, board) {
    board.appendChild(el("p", "status", [
      "round " + view.round,
      words(view.phase) + (view.step ? " · " + words(view.step) : ""),
      view.turn === null ? "game over" : "to play: seat " + view.turn,
      "deck " + view.deck_count,
      view.revealed ? "cards revealed" : "face-up slots " + (view.face_up_slots || []).join(", "),
    ].join(" · ")));
    const govs = el("div", "governments");
    for (const g of view.governments) {
      const column = el("section", "government", null, [el("h3", null, words(g.id))]);
      for (const c of g.contracts) {
        column.appendChild(el("div", "contract" + (c.cancelled ? " cancelled" : ""), null, [
          el("div", "contract-name", null, [el("span", null, c.name), el("span", "value", money(c.value))]),
          el("div", "cards", null, c.cards.map((card) => corruptionCard(card, view))),
        ]));
      }
      column.appendChild(el("div", "swiss", null, [
        el("span", "label", "Swiss bank"),
        el("div", "cards", null, g.swiss.map((card) => corruptionCard(card, view))),
      ]));
      govs.appendChild(column);
    }
    board.appendChild(govs);
    const seats = el("div", "seats");
    for (const s of view.seats) {
      const hand = view.hands ? view.hands[s.seat] : view.seat === s.seat ? view.hand : null;
      seats.appendChild(el("section", "seat-panel seat-" + s.seat + (view.turn === s.seat ? " to-play" : ""), null, [
        el("h3", null, seatLabel(s.seat)),
        el("p", "score", money(s.score) + " · " + s.contracts_won.length + " contract(s) won"),
        el("p", null, s.hand_count + " card(s) in hand · " + s.placed + " placed · " + s.peeks_left + " peek(s) left"),
        hand ? handRow(hand, (code) => el("span", "card in-hand", CORRUPTION_CARDS[code] || money(Number(code.replace("bribe-", ""))))) : null,
      ]));
    }
    board.appendChild(seats);
  }

  // ---- Intrigue ------------------------------------------------------------------------------

  function scholar(s) {
    if (!s) return el("span", "scholar empty", "empty");
    const chip = el("span", "scholar seat-" + s.owner, s.type + " · s" + s.owner);
    chip.title = "scholar " + s.id + ", seat " + s.owner;
    return chip;
  }

  function negotiationText(n) {
    const parts = [
      words(n.step) + " for palace " + n.palace,
      "applicant seat " + n.applicant + " (" + n.type + ")",
      n.role + " · " + n.stage,
    ];
    if (n.offer !== null && n.offer !== undefined) parts.push("offer " + money(n.offer));
    if (n.section) parts.push("section " + money(n.section));
    if (n.demand !== null && n.demand !== undefined) parts.push("demand " + money(n.demand));
    if (n.paid !== null && n.paid !== undefined) parts.push("paid " + money(n.paid));
    if (n.by_bank) parts.push("via the bank");
    return parts.join(" · ");
  }

  function negotiation(n) {
    return el("li", null, null, [
      el("span", null, negotiationText(n)),
      n.promise ? el("q", "promise", n.promise) : null,
    ]);
  }

  function drawIntrigue(view, board) {
    board.appendChild(el("p", "status", [
      "round " + view.round,
      words(view.phase) + (view.step ? " · " + words(view.step) : ""),
      view.turn === null ? "game over" : "turn: seat " + view.turn,
      view.decision ? "deciding: seat " + view.decision.seat + " (" + view.decision.kind + ")" : "",
    ].filter(Boolean).join(" · ")));
    const palaces = el("div", "palaces");
    for (const p of view.palaces) {
      const cash = Array.isArray(view.cash) ? view.cash[p.seat] : view.seat === p.seat ? view.cash : null;
      palaces.appendChild(el("section", "palace seat-" + p.seat, null, [
        el("h3", null, seatLabel(p.seat) + " · " + p.colour + " palace"),
        el("p", "cash", cash === null ? "cash: secret" : "cash " + money(cash)),
        el("div", "sections", null, p.sections.map((s) => el("div", "section", null, [el("span", "value", money(s.value)), scholar(s.scholar)]))),
        el("div", "waiting", null, [el("span", "label", "waiting")].concat(p.waiting.map(scholar))),
        el("p", "in-hand", "in hand: " + Object.entries(p.hand).map(([type, n]) => n + " " + type).join(", ")),
      ]));
    }
    board.appendChild(palaces);
    board.appendChild(el("div", "island", null, [el("span", "label", "island")].concat(view.island.map(scholar))));
    const talks = el("section", "negotiations", null, [el("h3", null, "Negotiation")]);
    talks.appendChild(el("ul", null, null, view.negotiation ? [negotiation(view.negotiation)] : [el("li", "quiet", "none under way")]));
    if (view.deals.length) {
      talks.appendChild(el("h3", null, "Deals this palace"));
      talks.appendChild(el("ul", null, null, view.deals.map(negotiation)));
    }
    board.appendChild(talks);
    if (view.money) {
      const rows = view.money.map((m) => el("tr", null, null, [m.seat, m.start, m.income, m.bribes_received, m.bribes_paid, m.bank_bribes].map((v, i) => el("td", null, i ? money(v) : v))));
      board.appendChild(el("table", "money", null, [
        el("thead", null, null, [el("tr", null, null, ["seat", "start", "income", "bribes received", "bribes paid", "bank bribes"].map((h) => el("th", null, h)))]),
        el("tbody", null, null, rows),
      ]));
    }
  }

  // ---- PARANOIA ------------------------------------------------------------------------------

  function paranoiaCard(view, id, extra) {
    const card = view.cards && view.cards[id];
    const chip = el("span", "pcard " + (extra || ""), card ? card.name : words(id));
    if (card && card.tags && card.tags.length) chip.title = card.tags.join(", ");
    return chip;
  }

  function pips(n, max, cls) {
    const row = el("span", "pips " + cls);
    for (let i = 0; i < Math.max(n, max); i++) row.appendChild(el("span", i < n ? "pip on" : "pip"));
    return row;
  }

  function drawParanoia(view, board) {
    const mission = view.mission && view.cards ? view.cards[view.mission] : null;
    board.appendChild(el("p", "status", [
      "mission " + view.mission_number + " of " + view.mission_cap + (mission ? ": " + mission.name : ""),
      words(view.phase),
      "team leader seat " + view.team_leader,
      view.turn === null ? "" : "turn: seat " + view.turn,
      "progress " + (view.counters.progress || 0) + " · wounds " + (view.counters.wounds || 0) + " · treason " + (view.counters.treason || 0),
    ].filter(Boolean).join(" · ")));
    if (view.secret_role) board.appendChild(el("p", "secret", "secret role: " + view.secret_role.role + " (seat " + view.secret_role.holder + ")"));
    const grid = el("div", "troubleshooters");
    for (const t of view.troubleshooters) {
      const hand = view.hands ? view.hands[t.seat] : view.seat === t.seat ? view.hand : null;
      grid.appendChild(el("section", "troubleshooter clearance-" + t.clearance.toLowerCase() + (t.alive ? "" : " dead") + (view.turn === t.seat ? " to-play" : ""), null, [
        el("h3", null, seatLabel(t.seat)),
        el("p", "clearance", t.clearance + (t.traitor ? " · TRAITOR" : "") + (t.alive ? "" : " · dead")),
        el("p", null, null, [el("span", "label", "wounds "), pips(t.wounds, t.max_wounds, "wounds"), el("span", null, " " + t.wounds + "/" + t.max_wounds)]),
        el("p", null, null, [el("span", "label", "treason "), pips(t.treason, t.max_treason, "treason"), el("span", null, " " + t.treason + "/" + t.max_treason)]),
        el("p", null, "clones " + t.clones + " · " + t.hand + " card(s) in hand" + (t.skips ? " · skips " + t.skips : "")),
        hand ? handRow(hand, (id) => paranoiaCard(view, id, "in-hand")) : null,
      ]));
    }
    board.appendChild(grid);
    const chain = el("section", "chain", null, [el("h3", null, "The chain")]);
    chain.appendChild(el("ol", null, null, view.chain.length ? view.chain.map((p) => el("li", p.cancelled || p.negated ? "cancelled" : null, null, [
      seatChip(p.seat),
      paranoiaCard(view, p.card),
      el("span", null, words(p.section) + (p.target === null || p.target === undefined ? "" : " → seat " + p.target) + (p.answers ? " (answering " + words(p.answers) + ")" : "") + (p.cancelled ? " · cancelled" : "") + (p.negated ? " · negated" : "")),
    ])) : [el("li", "quiet", "empty")]));
    board.appendChild(chain);
    if (view.table.length) {
      board.appendChild(el("section", "on-table", null, [el("h3", null, "On the table"), el("ul", null, null, view.table.map((c) => el("li", null, null, [seatChip(c.seat), paranoiaCard(view, c.card), el("span", null, (c.guarding === null || c.guarding === undefined ? "" : " guarding seat " + c.guarding) + (c.active ? "" : " · spent"))])))]));
    }
    const discards = Object.entries(view.discards).map(([id, n]) => n + "× " + words(id)).join(", ");
    board.appendChild(el("p", "deck", "action deck " + (Array.isArray(view.action_deck) ? view.action_deck.length : view.action_deck) + " · discards: " + (discards || "none")));
  }

  function drawGeneric(view, board) {
    board.appendChild(el("pre", "raw", JSON.stringify(view, null, 1)));
  }

  const DRAW = { corruption: drawCorruption, intrigue: drawIntrigue, paranoia: drawParanoia };

  // ---- stepping ------------------------------------------------------------------------------

  function show(to) {
    step = Math.max(0, Math.min(doc.steps.length - 1, to));
    const side = sideSelect.value;
    const current = doc.steps[step];
    slider.value = String(step);
    $("counter").textContent = "step " + (step + 1) + " of " + doc.steps.length + (current.number ? " · decision #" + current.number : " · the deal");
    drawDecision(current);
    drawEvents(side);
    const board = $("board");
    board.replaceChildren();
    board.dataset.side = side;
    (DRAW[doc.game.title] || drawGeneric)(views(side)[step], board);
  }

  $("first").addEventListener("click", () => show(0));
  $("back").addEventListener("click", () => show(step - 1));
  $("forward").addEventListener("click", () => show(step + 1));
  $("last").addEventListener("click", () => show(doc.steps.length - 1));
  slider.addEventListener("input", () => show(Number(slider.value)));
  sideSelect.addEventListener("change", () => show(step));
  document.addEventListener("keydown", (event) => {
    if (event.target instanceof HTMLSelectElement || event.target instanceof HTMLInputElement) return;
    const moves = { ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: doc.steps.length - 1 };
    if (event.key in moves) {
      event.preventDefault();
      show(moves[event.key]);
    }
  });
  show(0);
})();
