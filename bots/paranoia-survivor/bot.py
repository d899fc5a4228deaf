"""paranoia-survivor: a PARANOIA heuristic that climbs clearances and stays loyal (its play
is protocol/paranoia_play.py, shared with the bundled bots that talk).
"""

from __future__ import annotations

from protocol.paranoia_play import decide
from protocol.sdk import run

NAME = "paranoia-survivor"
VERSION = "1.0"

if __name__ == "__main__":
    run(decide, name=NAME, version=VERSION)
