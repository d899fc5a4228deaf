"""The one Jinja2 environment every page is rendered with.

Autoescaping is on for every template: names, versions, promises and log lines are chosen by
bots, so nothing reaches a page as HTML unless a template marks it safe, and none does with
bot text. Data handed to scripts goes through `tojson`, which escapes `<`, `>` and `&`.
"""

from __future__ import annotations

from functools import cache

import jinja2


@cache
def environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.PackageLoader("arena.web", "templates"),
        autoescape=True,  # every template, whatever its file name
        undefined=jinja2.StrictUndefined,  # a missing value is a bug, not an empty cell
        trim_blocks=True,
        lstrip_blocks=True,
    )
