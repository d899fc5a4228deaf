"""Events in words, for `arena show`: one line each, as a person at the table would say it."""

from __future__ import annotations

from typing import Any

from arena.games import talk
from arena.games.intrigue.scholars import COLOURS, SCHOLARS_PER_PLAYER


def _ducats(amount: int | None) -> str:
    return "nothing" if amount is None else f"{amount:,} ducats"


def _section(value: int | None) -> str:
    return "no particular section" if value is None else f"the {value:,} section"


def _scholar(body: dict[str, Any]) -> str:
    """E.g. "red doctor #26" (the colour is the scholar owner's)."""
    sid = body["scholar"]
    owner = sid // SCHOLARS_PER_PLAYER
    colour = COLOURS[owner] if owner < len(COLOURS) else f"seat {owner}"
    return f"{colour} {body.get('type', 'scholar')} #{sid}"


def _palace(seat: int) -> str:
    return f"seat {seat}'s palace"


def describe(body: dict[str, Any]) -> str:
    """One event body (as the table or a seat saw it) as a sentence."""
    kind = body["kind"]
    spoken = talk.describe(body)
    if spoken is not None:
        return spoken[:1].upper() + spoken[1:]  # not capitalize(): it lowercases the text
    if kind == "side-paid":
        return (
            f"Seat {body['from']} pays seat {body['to']} {_ducats(body['amount'])} under the "
            f"table (a deal of window {body['window']})"
        )
    if kind == "side-payment-failed":
        return (
            f"Seat {body['from']} cannot pay seat {body['to']} the {_ducats(body['amount'])} "
            f"agreed: the deal falls through"
        )
    if kind == "start-player":
        return f"Seat {body['seat']} plays first (drawn at random)"
    if kind == "round-start":
        return f"— Round {body['round']}"
    if kind == "turn-start":
        return f"Seat {body['seat']}'s turn (round {body['round']})"
    if kind == "income":
        last = " (final income)" if body["final"] else ""
        return f"Seat {body['seat']} collects {_ducats(body['amount'])} from the bank{last}"
    if kind == "receiving":
        parts = []
        if body["no_conflict"]:
            parts.append(f"{len(body['no_conflict'])} without conflict")
        for conflict in body["external"]:
            parts.append(f"{len(conflict['applicants'])} {conflict['type']}s in external conflict")
        for conflict in body["internal"]:
            parts.append(
                f"{len(conflict['applicants'])} {conflict['type']}(s) against the one in the "
                f"{conflict['section']:,} section"
            )
        return f"{_palace(body['palace']).capitalize()} receives: {'; '.join(parts)}"
    if kind == "offered":
        amount = _ducats(body["amount"])
        offer = f"has no money: the bank pays {amount}" if body["by_bank"] else f"offers {amount}"
        promise = f' — "{body["promise"]}"' if body["promise"] else ""
        role = " to keep it inside" if body["role"] == "incumbent" else ""
        return (
            f"Seat {body['applicant']} {offer} for its {_scholar(body)}{role}, "
            f"asking for {_section(body['section'])}{promise}"
        )
    if kind == "demanded":
        return (
            f"Seat {body['palace']} demands {_ducats(body['demand'])} instead of {body['offer']:,}"
        )
    if kind == "raised":
        return (
            f"Seat {body['applicant']} raises its offer to {_ducats(body['offer'])} "
            f"(seat {body['palace']} demanded {body['demand']:,})"
        )
    if kind == "negotiated":
        if not body.get("agreed", True):
            return (
                f"Seat {body['applicant']} and seat {body['palace']} do not agree: nothing is "
                f"paid for its {_scholar(body)}"
            )
        bank = " (paid by the bank)" if body["paid_by_bank"] else ""
        return (
            f"Seat {body['applicant']} pays seat {body['palace']} {_ducats(body['paid'])}{bank} "
            f"for its {_scholar(body)}"
        )
    if kind == "admitted":
        return f"Seat {body['palace']} admits the {_scholar(body)} ({body['step']})"
    if kind == "placed":
        asked = body["asked_section"]
        word = ""
        if asked is not None:
            word = " as asked" if asked == body["given_section"] else f" (asked for {asked:,})"
        instead = f", replacing #{body['replaced']}" if body.get("replaced") is not None else ""
        return (
            f"Seat {body['palace']} puts the {_scholar(body)} in {_section(body['given_section'])}"
            f"{word}{instead}"
        )
    if kind == "kept":
        return (
            f"Seat {body['palace']} keeps the {_scholar(body)} in {_section(body['given_section'])}"
        )
    if kind == "exiled":
        why = "replaced" if body["reason"] == "replaced" else "turned away"
        return f"The {_scholar(body)} goes to the island ({why} at {_palace(body['palace'])})"
    if kind == "sent":
        return f"Seat {body['seat']} sends its {_scholar(body)} to {_palace(body['palace'])}"
    if kind == "game-end":
        scores = ", ".join(
            f"seat {s}: {v:,} (#{r})" for s, (v, r) in enumerate(zip(body["scores"], body["ranks"]))
        )
        return f"Game over. Ducats: {scores}"
    return f"{kind}: {body}"
