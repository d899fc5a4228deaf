"""Attack: a hostile name in its hello (the name the referee shows in tables, logs and CI
reports): the test gives the name (params.json)."""

import json

from attacklib import params, play

given = params()
hello = {
    "type": "hello",
    "protocol": 1,
    "name": given["name"],
    "version": given.get("version", "0"),
}
play(hello=json.dumps(hello))
