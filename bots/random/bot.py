"""random: plays any arena game uniformly at random among the legal actions.

Written from protocol/SPEC.md alone, with nothing but the standard library (no SDK, nothing
from the arena repository): the proof that the spec is enough to write a bot.

Each game's choices are drawn from a generator seeded with the game_start seed and the bot's
seat, so the same game replays the same answers. For a request's legal description:
choice: a uniformly drawn option; range: a uniformly drawn step; text: ""; record: each field
drawn on its own, an optional field left out with probability 1/2.
"""

import json
import random
import sys

NAME = "random"
VERSION = "1.0"
PROTOCOL = 1


def draw(legal, rng):
    """A random legal answer to one legal-action description."""
    kind = legal.get("kind")
    if kind == "choice":
        return rng.choice(legal["options"])
    if kind == "range":
        steps = (legal["max"] - legal["min"]) // legal["step"]
        return legal["min"] + legal["step"] * rng.randint(0, steps)
    if kind == "text":
        return ""
    if kind == "record":
        optional = set(legal.get("optional", ()))
        answer = {}
        for name, sub in legal["fields"].items():
            if name in optional and rng.random() < 0.5:
                continue
            answer[name] = draw(sub, rng)
        return answer
    raise ValueError(f"unknown legal-action kind {kind!r}")


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def log(text):
    print(f"[random] {text}", file=sys.stderr, flush=True)


def main():
    rngs = {}  # game_id -> random.Random for the games in progress
    for line in sys.stdin.buffer:  # bytes: the wire is UTF-8 whatever the locale says
        try:
            message = json.loads(line)
        except ValueError:
            log(f"ignoring a line that is not JSON: {line[:80]!r}")
            continue
        if not isinstance(message, dict):
            continue
        kind = message.get("type")
        game_id = message.get("game_id")
        if kind == "hello":
            send({"type": "hello", "protocol": PROTOCOL, "name": NAME, "version": VERSION})
        elif kind == "game_start":
            rngs[game_id] = random.Random(f"{message.get('seed')}/{message.get('seat')}")
        elif kind == "request":
            rng = rngs.setdefault(game_id, random.Random(str(game_id)))
            try:
                action = draw(message["legal"], rng)
            except (KeyError, TypeError, ValueError, IndexError) as exc:
                log(f"cannot read the legal description of request {message.get('id')}: {exc!r}")
                action = None
            send({"type": "action", "id": message.get("id"), "action": action})
        elif kind == "game_over":
            rngs.pop(game_id, None)
        elif kind == "bye":
            return
        # anything else: a message type from a later protocol revision, ignored (SPEC.md §10)


if __name__ == "__main__":
    main()
