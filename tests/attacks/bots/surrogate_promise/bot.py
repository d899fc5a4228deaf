"""Attack: a lone surrogate in an Intrigue promise: free text that the game accepts and then
shows every other seat in its events, so the referee must encode it for them."""

import json

from attacklib import first_legal, play


def on_request(number, request):
    if request["decision"] == "offer":
        action = first_legal(request["legal"])
        action["promise"] = "\udc80 I promise"
        return json.dumps({"type": "action", "id": request["id"], "action": action})
    return None


play(name="surrogate-promise", on_request=on_request)
