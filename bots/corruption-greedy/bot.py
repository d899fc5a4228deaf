"""corruption-greedy: a Corruption heuristic built on the arena SDK.

The idea: random play spreads bribes thin, so whoever concentrates wins contracts. Each
placement goes where it does most good: the dearest contract this bot can still secure with
the placements it has left this round. Characters are spent where they protect that plan:
a Reporter strips a rival's bribe from a contract it is buying, a Hit Man guards it against
a rival District Attorney or Reporter, a District Attorney spoils a dear contract a rival is
about to take. Swiss accounts (half value) are left alone.
"""

from __future__ import annotations

from typing import Any

from protocol.sdk import run

BRIBE = {
    "bribe-1000": 1000,
    "bribe-2000": 2000,
    "bribe-4000": 4000,
    "bribe-6000": 6000,
    "bribe-8000": 8000,
    "bribe-10000": 10000,
}
HIDDEN_GUESS = 3500
"""What an unseen rival card under a contract is taken to be worth."""
MARGIN = 3000
"""How far ahead of the strongest rival a contract counts as safe."""
PLACEMENTS_PER_ROUND = 6


def contracts(view: dict[str, Any]) -> list[dict[str, Any]]:
    return [c for g in view["governments"] for c in g["contracts"]]


def strengths(contract: dict[str, Any], me: int) -> tuple[int, int, int]:
    """(my bribes, the strongest rival's estimated bribes, rival cards I cannot see)."""
    mine = 0
    rivals: dict[int, int] = {}
    unseen = 0
    for card in contract["cards"]:
        if card.get("status", "in-play") != "in-play":
            continue
        code = card.get("card")
        if card["owner"] == me:
            mine += BRIBE.get(code, 0)
            continue
        if code is None:
            unseen += 1
            rivals[card["owner"]] = rivals.get(card["owner"], 0) + HIDDEN_GUESS
        else:
            rivals[card["owner"]] = rivals.get(card["owner"], 0) + BRIBE.get(code, 0)
    return mine, max(rivals.values(), default=0), unseen


def rival_cards(contract: dict[str, Any], me: int, codes: set[str]) -> list[dict[str, Any]]:
    """Rival cards on the contract that are (or might be, if unseen) one of codes."""
    return [
        c
        for c in contract["cards"]
        if c["owner"] != me and (c.get("card") is None or c.get("card") in codes)
    ]


def choose_place(view: dict[str, Any], options: list[dict[str, Any]]) -> dict[str, Any]:
    me = view["seat"]
    placeable = [o for o in options if "contract" in o]
    if not placeable:
        return options[0]
    hand_bribes = sorted((BRIBE[c] for c in view["hand"] if c in BRIBE), reverse=True)
    placed = view["seats"][me]["placed"]
    left = PLACEMENTS_PER_ROUND - placed
    by_id = {c["id"]: c for c in contracts(view)}

    def legal(card: str, contract: int) -> dict[str, Any] | None:
        wanted = {"card": card, "contract": contract}
        return wanted if wanted in placeable else None

    # The contract worth most per dollar still needed to secure it, among those the bribes
    # left this round can secure. Per dollar, not dearest first: two bots chasing the same
    # dear contract both lose, so a contested contract should yield to an open one.
    budget = sum(hand_bribes[:left])
    plan = None
    best = 0.0
    for contract in by_id.values():
        mine, rival, _ = strengths(contract, me)
        need = rival + MARGIN - mine
        if 0 < need <= budget and contract["value"] / need > best:
            plan, best = (contract, need), contract["value"] / need
    # Characters replace the smallest bribe placement, where they protect the plan.
    small_bribe_next = hand_bribes and hand_bribes[-1] <= 2000 and left <= 2
    if plan is None or small_bribe_next:
        invested = sorted(by_id.values(), key=lambda c: -strengths(c, me)[0] * c["value"])
        for contract in invested:
            mine, rival, _ = strengths(contract, me)
            if mine == 0:
                break
            if rival_cards(contract, me, {"district-attorney", "reporter"}) and (
                a := legal("hit-man", contract["id"])
            ):
                return a
            if any(
                BRIBE.get(c.get("card"), 0) >= 4000 or c.get("card") is None
                for c in rival_cards(contract, me, set(BRIBE))
            ) and (a := legal("reporter", contract["id"])):
                return a
        for contract in sorted(by_id.values(), key=lambda c: -c["value"]):
            mine, rival, _ = strengths(contract, me)
            if (
                mine == 0
                and rival >= 8000
                and contract["value"] >= 500_000
                and (a := legal("district-attorney", contract["id"]))
            ):
                return a
    if plan is not None:
        contract, need = plan
        # the smallest bribe that covers the need, else the largest one
        for value in sorted(hand_bribes):
            if value >= need and (a := legal(f"bribe-{value}", contract["id"])):
                return a
        for value in hand_bribes:
            if a := legal(f"bribe-{value}", contract["id"]):
                return a
    # Nothing to buy: reinforce the dearest contract I already hold a stake in, or the dearest.
    target = max(by_id.values(), key=lambda c: (strengths(c, me)[0] > 0, c["value"]))
    for value in sorted(hand_bribes):
        if a := legal(f"bribe-{value}", target["id"]):
            return a
    return placeable[0]


def choose_hit(view: dict[str, Any], options: list[dict[str, Any]]) -> dict[str, Any]:
    me = view["seat"]
    cards = {c["placement"]: c for ct in contracts(view) for c in ct["cards"]}
    preference = {"district-attorney": 0, "reporter": 1, "hit-man": 2}

    def rank(option: dict[str, Any]) -> tuple[int, int]:
        card = cards.get(option["target"], {})
        return (card.get("owner") == me, preference.get(card.get("card"), 3))

    return min(options, key=rank)


def choose_report(view: dict[str, Any], options: list[dict[str, Any]]) -> dict[str, Any]:
    me = view["seat"]
    cards = {c["placement"]: c for ct in contracts(view) for c in ct["cards"]}
    best, best_value = {"remove": None}, 0
    for option in options:
        card = cards.get(option["remove"]) if option["remove"] is not None else None
        if card is None or card["owner"] == me:
            continue
        value = BRIBE.get(card.get("card"), 0)
        if value > best_value:
            best, best_value = option, value
    return best if best in options else options[0]


def choose_swiss(view: dict[str, Any], options: list[dict[str, Any]]) -> dict[str, Any]:
    me = view["seat"]
    by_id = {c["id"]: c for c in contracts(view)}

    def gain(option: dict[str, Any]) -> tuple[bool, int]:
        contract = by_id.get(option["contract"])
        if contract is None:
            return (False, 0)
        mine, rival, _ = strengths(contract, me)
        return (mine > 0 or rival == 0, contract["value"])

    return max(options, key=gain)


def decide(view: dict[str, Any], legal: dict[str, Any]) -> Any:
    options = legal["options"]
    kind = (view.get("decision") or {}).get("kind")
    if kind == "place":
        return choose_place(view, options)
    if kind == "hit":
        return choose_hit(view, options)
    if kind == "report":
        return choose_report(view, options)
    if kind == "swiss":
        return choose_swiss(view, options)
    if kind == "face_up_slots":
        return {"face_up": []} if {"face_up": []} in options else options[0]
    return options[0]


if __name__ == "__main__":
    run(decide, name="corruption-greedy", version="1.0")
