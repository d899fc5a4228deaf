"""Where each page of the report lives: one URL scheme for the static site (`arena report`) and
the live server (`arena serve`), and the one way text from the database becomes a file name.

Game ids and bot names and versions are plain words by the protocol's rules, but a hand-edited
database may hold anything, so every such text goes through ``safe_file_name``: letters,
digits, ``.``, ``_``, ``@`` and ``-`` stay, every other byte becomes ``~XX`` (hex), which
``unsafe_file_name`` reverses. A name can then never climb out of its folder (``/``, ``..``)
nor mean anything to HTML or a URL.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import quote

_KEPT = re.compile(r"[A-Za-z0-9_@-]")
_ESCAPE = re.compile(r"~([0-9A-F]{2})")

INDEX = "index.html"
GAMES = "games/index.html"
LEAGUES = "leagues/index.html"


def safe_file_name(text: str) -> str:
    """``text`` as a file name that is the same word when it is a plain word (see above)."""
    if not text:
        return "~"
    kept = []
    for position, char in enumerate(text):
        if _KEPT.fullmatch(char) or (char == "." and position > 0):
            kept.append(char)
        else:
            kept.extend(f"~{byte:02X}" for byte in char.encode("utf-8"))
    return "".join(kept)


def unsafe_file_name(name: str) -> str:
    """The text ``safe_file_name`` made ``name`` from."""
    if name == "~":
        return ""
    raw = bytearray()
    position = 0
    for match in _ESCAPE.finditer(name):
        raw += name[position : match.start()].encode("utf-8")
        raw.append(int(match.group(1), 16))
        position = match.end()
    raw += name[position:].encode("utf-8")
    return raw.decode("utf-8", errors="replace")


def game_page(game_id: str) -> str:
    return f"games/{safe_file_name(game_id)}.html"


def game_of_page(path: str) -> str:
    """The game id of a replay page's path (``game_page``'s inverse)."""
    return unsafe_file_name(path.removeprefix("games/").removesuffix(".html"))


def is_game_page(path: str) -> bool:
    """True for a game's replay page (``game_page``), not the games list beside them."""
    folder, _, name = path.partition("/")
    return folder == "games" and "/" not in name and path != GAMES


def bot_page(title: str, file_name: str) -> str:
    """``file_name`` is a bot's ``BotKey.file_name`` (already safe)."""
    return f"bots/{safe_file_name(title)}/{file_name}.html"


def league_page(name: str) -> str:
    return f"leagues/{safe_file_name(name)}.html"


@dataclass(frozen=True)
class GameFilter:
    """Which games a page of the games list shows: all, or those of one title, one bot
    (name@version), one league, or with a fault."""

    kind: str = ""
    """"", "title", "bot", "league" or "fault"."""
    value: str = ""

    KINDS = ("title", "bot", "league", "fault")

    @property
    def slug(self) -> str:
        if not self.kind:
            return "all"
        if self.kind == "fault":
            return "fault"
        return f"{self.kind}-{safe_file_name(self.value)}"

    @classmethod
    def from_slug(cls, slug: str) -> GameFilter | None:
        """The filter a page's URL names; None for a slug no filter makes."""
        if slug == "all":
            return cls()
        if slug == "fault":
            return cls("fault")
        kind, _, value = slug.partition("-")
        if kind not in ("title", "bot", "league") or not value:
            return None
        return cls(kind, unsafe_file_name(value))


def games_list_page(shown: GameFilter, page: int) -> str:
    """Page ``page`` (from 1) of the games list under ``shown``."""
    if not shown.kind and page == 1:
        return GAMES
    return f"games/list/{shown.slug}/{page}.html"


def parse_games_list_page(path: str) -> tuple[GameFilter, int] | None:
    """(filter, page) of a games-list path, or None if ``path`` is not one."""
    if path == GAMES:
        return GameFilter(), 1
    match = re.fullmatch(r"games/list/([^/]+)/([1-9][0-9]{0,8})\.html", path)
    if match is None:
        return None
    shown = GameFilter.from_slug(match.group(1))
    return None if shown is None else (shown, int(match.group(2)))


def relative(from_page: str, to_page: str) -> str:
    """The URL of ``to_page`` (a path from the site's root) as a link on ``from_page``."""
    return "../" * from_page.count("/") + quote(to_page, safe="/@~-._")


def root_of(page: str) -> str:
    """The relative URL of the site's root from ``page`` ("" at the top, "../" one down)."""
    return "../" * page.count("/")
