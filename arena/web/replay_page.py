"""The replay viewer's page: the replay document embedded as JSON, drawn by replay.js.

Bot text (names, fault reasons, Intrigue promises) reaches the page only through autoescaped
template values or the JSON block, which ``htmlsafe_json_dumps`` escapes (no ``</script>`` can
close it); replay.js inserts every piece of it with ``textContent``.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from jinja2.utils import htmlsafe_json_dumps
from markupsafe import Markup

from arena.printable import visible
from arena.record import GameRecord
from arena.replay import ReplayError
from arena.web.replay_data import TABLE, replay_document
from arena.web.templating import environment

ASSETS = ("replay.css", "replay.js")
ICON = "favicon.ico"
NO_ICON = "data:,"
"""A page with no icon of its own names this one, or the browser asks for /favicon.ico."""
SHARED_STYLE = "site.css"
"""The site's stylesheet, linked first when the package ships it, for a shared look."""


def render_replay(
    record: GameRecord,
    *,
    asset_prefix: str,
    home: str,
    only_seat: int | None = None,
    generator: str | None = None,
) -> str:
    """The replay page of ``record``, linking its assets under ``asset_prefix`` (the static
    folder's URL relative to the page, e.g. "../static/"); ``home`` is the site's index.
    With ``only_seat`` the page holds that seat's side of the game alone; ``generator`` goes
    into its generator meta tag. A record that does not replay gets a page saying why (the
    site still links every game)."""
    styles = [name for name in (SHARED_STYLE, "replay.css") if _asset_exists(name)]
    stylesheets = [asset_prefix + name for name in styles]
    icon = asset_prefix + ICON if _asset_exists(ICON) else NO_ICON
    try:
        return _render(
            record,
            only_seat,
            home=home,
            stylesheets=stylesheets,
            scripts=[asset_prefix + "replay.js"],
            icon=icon,
            generator=generator,
        )
    except ReplayError as exc:  # a newer arena's title, a hand-edited record: say so, in place
        return (
            environment()
            .get_template("replay_unavailable.html")
            .render(
                record=record,
                reason=visible(str(exc)),
                home=home,
                stylesheets=stylesheets,
                icon=icon,
                generator=generator,
            )
        )


def render_standalone_replay(record: GameRecord, *, only_seat: int | None = None) -> str:
    """The replay page as one file that needs nothing beside it (`arena show --html`): the
    package's own stylesheets and script are written into it. Raises ReplayError if the
    record does not replay."""
    styles = [name for name in (SHARED_STYLE, "replay.css") if _asset_exists(name)]
    script = _asset_text("replay.js")
    assert "</script" not in script.lower(), "replay.js cannot be inlined as it is"
    return _render(
        record,
        only_seat,
        home="",
        icon=NO_ICON,
        inline_styles=[Markup(_asset_text(name)) for name in styles],  # our files, not bot text
        inline_scripts=[Markup(script)],
    )


def _render(record: GameRecord, only_seat: int | None, **assets: Any) -> str:
    """The page; ``assets`` names the stylesheets and scripts linked or inlined (and home)."""
    document = replay_document(record, only_seat=only_seat)
    labels = {s["seat"]: s["bot"] for s in document["seats"]}
    sides = [
        {
            "value": side,
            "label": "the table (everything)"
            if side == TABLE
            else f"seat {side}: {labels[int(side)]}",
        }
        for side in document["sides"]
    ]
    no_assets: dict[str, Any] = {
        "generator": None,
        "stylesheets": [],
        "scripts": [],
        "inline_styles": [],
        "inline_scripts": [],
    }
    return (
        environment()
        .get_template("replay.html")
        .render(
            record=record,
            seats=document["seats"],
            sides=sides,
            steps=len(document["steps"]),
            only_seat=only_seat,
            variants=", ".join(record.options.get("variants", [])) or "standard rules",
            status=record.status,
            termination=visible(record.termination),
            data=htmlsafe_json_dumps(document, dumps=_compact),
            **(no_assets | assets),
        )
    )


def _compact(value: Any, **kwargs: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, **kwargs)


def _static(name: str) -> Any:
    return resources.files("arena.web").joinpath("static", name)


def _asset_exists(name: str) -> bool:
    return bool(_static(name).is_file())


def _asset_text(name: str) -> str:
    return str(_static(name).read_text(encoding="utf-8"))
