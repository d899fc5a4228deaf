"""Attack: a lone surrogate (\\udc80: valid JSON, not valid Unicode) as its action, so that the
referee carries a string it cannot encode again (into a record, a log, another bot's view)."""

from attacklib import play


def on_request(number, request):
    if number == 1:
        return f'{{"type": "action", "id": {request["id"]}, "action": "\\udc80"}}'
    return None


play(name="surrogate-toy", on_request=on_request)
