"""Attack: table talk (SPEC.md §14). It asks for talk; what it says depends on params.json:

- {"mode": "talk"} (default): legal but hostile talk, in turn: a public message whose text is
  rich markup, HTML and a template expression (for every place that prints talk), and a private
  message to the next talker carrying SECRET-<seat> (which no third seat may ever read);
- {"mode": "outsider"}: its first talk answer is addressed to a seat that does not talk;
- {"mode": "invented-ref"}: its first talk answer rejects a proposal it made up.

Every talk event it reads goes to its log as `ATTACK heard info <event>`, so the test can show
that no private message of other seats ever reached it.
"""

import json

from attacklib import info, params, play

HOSTILE = "[/][bold red]x[/] <script>alert(1)</script> {{ 7*7 }}"
state = {"seat": 0, "talkers": [], "players": 0, "talks": 0}


def on_game_start(message):
    state["seat"] = message["seat"]
    state["players"] = message["players"]
    state["talkers"] = message["options"].get("talk", [])


def a_listener(request):
    """Another talker of this window (the windows of Intrigue's negotiations hold two)."""
    return next(to for to in request["legal"]["fields"]["to"]["options"] if to != "all")


def on_request(number, request):
    if request.get("decision") != "talk":
        return None
    state["talks"] += 1
    mode = params().get("mode", "talk")
    if mode == "outsider":
        outsider = next(s for s in range(state["players"]) if s not in state["talkers"])
        action = {"act": "tell", "to": outsider, "text": "psst"}
    elif mode == "invented-ref":
        action = {"act": "reject", "ref": {"round": 1, "from": 99}}
    elif state["talks"] % 2:
        action = {"act": "tell", "text": HOSTILE}
    else:
        action = {"act": "tell", "to": a_listener(request), "text": f"SECRET-{state['seat']}"}
    return json.dumps({"type": "action", "id": request["id"], "action": action})


def on_event(event):
    if event.get("kind") in ("said", "unsaid"):
        info("heard", event)


play(
    name="talk-hostile",
    on_request=on_request,
    on_game_start=on_game_start,
    on_event=on_event,
    hello=json.dumps(
        {
            "type": "hello",
            "protocol": 1,
            "name": "talk-hostile",
            "version": "1",
            "features": ["talk"],
        }
    ),
)
