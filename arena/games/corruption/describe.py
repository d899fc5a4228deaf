"""Events in words, for `arena show`: one line each, as a person at the table would say it."""

from __future__ import annotations

from typing import Any

from arena.games.corruption.contracts import BY_ID


def contract_name(contract_id: int | None) -> str:
    return BY_ID[contract_id].name if contract_id in BY_ID else "?"


def _card(code: str | None) -> str:
    if code is None:
        return "a face-down card"
    if code.startswith("bribe-"):
        return f"${int(code[6:]):,} bribe"
    return code.replace("-", " ").title()


def _where(body: dict[str, Any]) -> str:
    if body.get("swiss"):
        return f"on the {body['government'].replace('-', ' ').title()} Swiss account"
    return f"under {contract_name(body.get('contract'))}"


def describe(body: dict[str, Any]) -> str:
    """One event body (as the table or a seat saw it) as a sentence."""
    kind = body["kind"]
    if kind == "round-start":
        dealt = ", ".join(f"{d['name']} (${d['value']:,})" for d in body["dealt"])
        return f"— Round {body['round']}: dealt {dealt}; {body['deck_count']} contracts left in the deck"
    if kind == "first-player":
        return f"Seat {body['seat']} plays first ({body['reason'].replace('-', ' ')})"
    if kind == "face-up-slots":
        slots = ", ".join(map(str, body["face_up"])) or "none"
        chooser = (
            f" (chosen by seat {body['chosen_by']})" if body.get("chosen_by") is not None else ""
        )
        return f"Face-up placements this round: {slots}{chooser}"
    if kind == "placed":
        side = "face up" if body["face_up"] else "face down"
        return f"Seat {body['seat']} places {_card(body.get('card'))} {_where(body)} ({side}, #{body['placement']})"
    if kind == "peeked":
        seen = f": it is a {_card(body['card'])}" if body.get("card") else ""
        return (
            f"Seat {body['seat']} peeks at seat {body['owner']}'s card #{body['placement']}{seen}"
        )
    if kind == "revealed":
        return f"All {len(body['cards'])} cards are turned face up"
    if kind == "swiss-assigned":
        return (
            f"Seat {body['seat']} assigns its Swiss {_card(body['card'])} to "
            f"{contract_name(body['contract'])} (worth ${body['value']:,})"
        )
    if kind == "swiss-unassigned":
        return f"Seat {body['seat']}'s Swiss {_card(body['card'])} has no contract to go to"
    if kind == "killed":
        return (
            f"Seat {body['seat']}'s Hit Man kills seat {body['target_owner']}'s "
            f"{_card(body['target_card'])} under {contract_name(body['contract'])}"
        )
    if kind == "hit-man-removed":
        return f"Seat {body['seat']}'s Hit Man under {contract_name(body['contract'])} has no target and leaves"
    if kind == "cancelled":
        return f"{contract_name(body['contract'])} is cancelled by a District Attorney; its bribes go back"
    if kind == "reported":
        if body.get("nothing_to_remove"):
            return f"Seat {body['seat']}'s Reporter under {contract_name(body['contract'])} finds no bribe"
        if body.get("removed") is None:
            return f"Seat {body['seat']}'s Reporter under {contract_name(body['contract'])} removes nothing"
        return (
            f"Seat {body['seat']}'s Reporter removes seat {body['removed_owner']}'s "
            f"{_card(body['removed_card'])} from {contract_name(body['contract'])}"
        )
    if kind == "awarded":
        return f"{contract_name(body['contract'])} (${body['value']:,}) goes to seat {body['seat']} — {_totals(body)}"
    if kind == "not-awarded":
        why = "a tie" if body["reason"] == "tie" else "no bribe"
        return f"{contract_name(body['contract'])} is not awarded ({why}) — {_totals(body)}"
    if kind == "characters-leave":
        return f"{len(body['cards'])} character(s) leave the game"
    if kind == "round-end":
        scores = ", ".join(f"seat {s}: ${v:,}" for s, v in enumerate(body["scores"]))
        return f"End of round {body['round']}. Scores: {scores}"
    if kind == "game-end":
        ranks = ", ".join(f"seat {s}: #{r}" for s, r in enumerate(body["ranks"]))
        return f"Game over. Ranks: {ranks}"
    return f"{kind}: {body}"


def _totals(body: dict[str, Any]) -> str:
    totals = body.get("totals") or []
    return ", ".join(f"seat {t['seat']} ${t['total']:,}" for t in totals) or "no bribes"
