"""Events in words, for `arena show`: one line each, as a person at the table would say it."""

from __future__ import annotations

from typing import Any

from arena.games import talk


def _seat(seat: int | None) -> str:
    return "nobody" if seat is None else f"seat {seat}"


def _cards(cards: list[str]) -> str:
    return ", ".join(cards) if cards else "nothing"


def _played(b: dict[str, Any]) -> str:
    on = "" if b["target"] is None else f" on seat {b['target']}"
    why = {
        "turn": "",
        "respond": f" in answer to {b['answers']}" if b["answers"] else " (play anytime)",
        "dying": " as its dying action",
        "turn-end": " between turns",
        "phase-end": " as the phase ends",
    }[b["context"]]
    return f"Seat {b['seat']} plays {b['card']} ({b['section']}){on}{why}"


_SIMPLE = {
    "setup": lambda b: f"{b['players']} troubleshooters; seat {b['team_leader']} is Team Leader",
    "mission": lambda b: (
        f"— Mission {b['number']}: {b['mission']} (Team Leader: seat {b['team_leader']})"
    ),
    "missions-reshuffled": lambda b: "The used missions are shuffled into a new Mission deck",
    "reshuffled": lambda b: f"The discards are shuffled into a new Action deck ({b['cards']})",
    "turn": lambda b: f"Seat {b['seat']}'s turn",
    "turn-skipped": lambda b: f"Seat {b['seat']} skips its turn ({b['reason']})",
    "turn-to-skip": lambda b: f"Seat {b['seat']} will skip its next turn",
    "played": _played,
    "fizzled": lambda b: f"Seat {b['seat']}'s {b['card']} is cancelled and does nothing",
    "resolved": lambda b: f"Seat {b['seat']}'s {b['card']} resolves",
    "on-table": lambda b: (
        f"Seat {b['seat']}'s {b['card']} stays on the table"
        + ("" if b["guarding"] is None else f", guarding seat {b['guarding']}")
    ),
    "cancelled": lambda b: (
        f"Seat {b['seat']}'s {b['card']} cancels seat {b['answered_seat']}'s {b['answered_card']}"
    ),
    "negated": lambda b: (
        f"Seat {b['seat']}'s Docbot negates the wounds of {b['answered_card']}"
        + (f" (heals {b['healed']})" if b["healed"] else "")
    ),
    "wounds-negated": lambda b: f"The wounds {b['card']} would deal seat {b['seat']} are negated",
    "counter": lambda b: f"Mission {b['counter']} counter: {b['from']} → {b['to']}",
    "phase-ending": lambda b: f"Seat {b['seat']}'s {b['card']} will end the card play",
    "no-effect": lambda b: f"{b['card']} has no effect ({b['when'].replace('_', ' ')} fails)",
    "wounded": lambda b: (
        f"Seat {b['seat']} takes {b['amount']} wound(s) from seat {b['by']}'s {b['card']}"
        + ("" if b["guarding"] is None else f" instead of seat {b['guarding']}")
        + f" (now {b['wounds']})"
    ),
    "loyalty-treason": lambda b: (
        f"Seat {b['seat']} gets {b['amount']} treason for wounding loyal seat {b['wounded']}"
    ),
    "treason": lambda b: (
        f"Seat {b['seat']} gets {b['amount']} treason (now {b['treason']})"
        + ("" if b["by"] is None else f" from seat {b['by']}")
    ),
    "made-traitor": lambda b: (
        f"Seat {b['seat']} made seat {b['traitor']} a traitor and sheds {b['shed']} treason"
    ),
    "absolved": lambda b: f"Seat {b['seat']} loses {b['amount']} treason (now {b['treason']})",
    "healed": lambda b: f"Seat {b['seat']} heals {b['amount']} wound(s) (now {b['wounds']})",
    "clearance": lambda b: (
        f"Seat {b['seat']} goes from {b['from']} to {b['to']} ({b['reason']})"
        if b["moved"]
        else f"Seat {b['seat']} stays {b['from']} (no card in the supply, {b['reason']})"
    ),
    "clone-gained": lambda b: f"Seat {b['seat']} has {b['clones']} clone(s)",
    "steal-declined": lambda b: f"Seat {b['seat']} takes no card from seat {b['from']}",
    "discarded": lambda b: (
        f"Seat {b['seat']} discards {b['card']}"
        + ("" if b["by"] is None else f" (seat {b['by']}'s card)")
    ),
    "dying": lambda b: f"Seat {b['seat']} is dying (seat {b['by']}'s {b['card']})",
    "survived": lambda b: f"Seat {b['seat']} lives on with {b['wounds']} wound(s)",
    "died": lambda b: (
        f"Seat {b['seat']} {'is executed' if b['execution'] else 'dies'}; "
        f"{b['clones']} clone(s) left"
    ),
    "traitor-killed": lambda b: (
        f"Seat {b['seat']} killed traitor seat {b['traitor']} and sheds {b['shed']} treason"
    ),
    "last-clone": lambda b: f"Seat {b['seat']} has lost its last clone: the game ends",
    "new-leader": lambda b: f"Seat {b['seat']} becomes Team Leader (seat {b['previous']} died)",
    "new-clone": lambda b: f"Seat {b['seat']}'s next clone arrives ({b['clones']} left)",
    "mission-complete": lambda b: f"Team Leader seat {b['seat']} declares the mission complete",
    "card-play-end": lambda b: f"Card play ends ({b['reason']})",
    "tie-broken": lambda b: (
        f"Tie for {b['test'].replace('_', ' ')} among seats {b['tied']}: seat {b['seat']}"
    ),
    "executed": lambda b: f"Internal Security: seat {b['seat']} is a traitor ({b['treason']})",
    "internal-security": lambda b: (
        f"Internal Security: {len(b['executed'])} executed; wounds and treason discarded"
    ),
}


def describe(body: dict[str, Any]) -> str:
    """One event body (as the table or a seat saw it) as a sentence."""
    kind = body["kind"]
    if kind == "drew":
        what = _cards(body["cards"]) if "cards" in body else f"{body['count']} card(s)"
        return f"Seat {body['seat']} draws {what} ({body['reason']})"
    if kind == "stole":
        what = _cards(body["cards"]) if "cards" in body else f"{body['count']} card(s)"
        return f"Seat {body['seat']} takes {what} from seat {body['from']} at random"
    if kind == "secret-role":
        return f"A secret {body['role']} is chosen: {_seat(body['holder'])}" + (
            "" if body["holder"] is not None else " (hidden)"
        )
    if kind == "debriefing":
        results = ", ".join(
            f"seat {r['seat']} {'succeeds' if r['success'] else 'fails'}" for r in body["results"]
        )
        officer = "" if body["holder"] is None else f"; the officer was seat {body['holder']}"
        return f"Debriefing of {body['mission']}: {results or 'nobody alive'}{officer}"
    if kind == "game-end":
        ranks = ", ".join(
            f"seat {s}: {c} (#{r})"
            for s, (c, r) in enumerate(zip(body["clearances"], body["ranks"], strict=True))
        )
        return f"Game over after {body['missions']} missions ({body['ended_by']}). {ranks}"
    line = _SIMPLE.get(kind)
    if line is not None:
        return line(body)
    return talk.describe(body) or f"{kind}: {body}"
