"""Attack: crash the referee's decoder with a 5,000-digit integer (Python refuses to convert
more than 4,300 digits: a ValueError, not a JSON error) as its action."""

from attacklib import play


def on_request(number, request):
    if number == 1:
        return f'{{"type": "action", "id": {request["id"]}, "action": {"9" * 5000}}}'
    return None


play(name="bigint", on_request=on_request)
