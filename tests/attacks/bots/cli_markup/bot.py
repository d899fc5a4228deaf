"""Attack: the referee's terminal, through rich markup. Its first answer is an illegal action
whose text is markup (a stray closing tag), which the fault's reason quotes and `arena check`
prints."""

import json

from attacklib import play


def on_request(number, request):
    if number == 1:
        return json.dumps({"type": "action", "id": request["id"], "action": "[/][bold red]x[/]"})
    return None


play(name="cli-markup", on_request=on_request)
