"""Every page of the report, by its path: what `arena report` writes to disk and `arena serve`
answers with, from one open database.

The league pages read the league tables (leagues.store); like the command line, the report is
a composition of both layers, and this module is where it reaches up into leagues/.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Generator, Iterator
from datetime import UTC, datetime
from typing import Any

import orjson

from arena.record import GameRecord
from arena.store import GameNotFound, Store
from arena.store.queries import titles
from arena.web import paths, queries
from arena.web.paths import GameFilter
from arena.web.replay_page import render_replay
from arena.web.templating import environment
from leagues.store import LeagueRow, LeagueStore

GENERATOR = "arena report"


def replay_html(
    record: GameRecord,
    asset_prefix: str = "../static/",
    home: str = "../index.html",
    generator: str | None = None,
) -> str:
    """The replay page of a game in the site: ``asset_prefix`` is the static folder's URL from
    the page, ``home`` the URL of the page to go back to, ``generator`` what wrote it (a
    written site's stamp, see site.py)."""
    return render_replay(record, asset_prefix=asset_prefix, home=home, generator=generator)


class Pages:
    """The pages of one open database. ``live``: served by `arena serve` (pages poll for new
    games and reload); else written to disk, with the replays of the newest ``replays`` games
    only (None: every game), stamped ``generator``. ``lists_in_order``: the caller asks for
    each games list's pages in order (the site writer), so each list is read in one pass;
    close() then ends the reads of lists left unfinished."""

    def __init__(
        self,
        store: Store,
        *,
        live: bool = False,
        replays: int | None = None,
        generator: str | None = None,
        lists_in_order: bool = False,
    ) -> None:
        self.store = store
        self.db = store.db
        self.live = live
        self.keys = queries.bot_keys(self.db)
        self.seq = queries.latest_seq(self.db)
        self.generator = generator
        self.replayed: frozenset[str] | None = None
        """The games with a replay page; None: every game."""
        if replays is not None:
            self.replayed = frozenset(
                row[0]
                for row in self.db.execute(
                    "SELECT id FROM games ORDER BY seq DESC LIMIT ?", [replays]
                )
            )

        self._links_by_depth: dict[int, dict[tuple[str, int], Any]] = {}
        """Bots' links as rendered once (_bot_links), by the depth of the pages they are on."""
        self.lists_in_order = lists_in_order
        self._in_order: dict[GameFilter, tuple[int, Generator[queries.GamesPage]]] = {}
        """Games lists being read page after page, each in one pass: the next page each will
        give (see _games_page)."""

    def close(self) -> None:
        """End the one-pass reads of games lists not read to their end (each holds a
        statement open, and with it a read lock on the database)."""
        for _, pages in self._in_order.values():
            pages.close()
        self._in_order.clear()

    def has_replay(self, game_id: str) -> bool:
        return self.replayed is None or game_id in self.replayed

    # -- the site's paths -------------------------------------------------------------------

    def paths(self) -> Iterator[str]:
        """Every page of the static site (the replays last: they are most of the work)."""
        yield paths.INDEX
        for shown in [GameFilter(), GameFilter("fault"), *self._filters()]:
            pages = queries.games_page(self.db, shown, 1, self.keys).pages
            for page in range(1, pages + 1):
                yield paths.games_list_page(shown, page)
        for title, bot_ids in queries.bot_titles(self.db).items():
            for bot_id in bot_ids:
                yield paths.bot_page(title, self.keys[bot_id].file_name)
        yield paths.LEAGUES
        for league in self._leagues():
            yield paths.league_page(league.name)
        for (game_id,) in self.db.execute("SELECT id FROM games ORDER BY seq"):
            if self.has_replay(game_id):
                yield paths.game_page(game_id)

    def render(self, path: str) -> str | None:
        """The page at ``path`` (from the site's root), or None if there is none."""
        if path in ("", paths.INDEX):
            return self.leaderboards()
        if path == paths.LEAGUES:
            return self.league_list()
        listed = paths.parse_games_list_page(path)
        if listed is not None:
            return self.games_list(*listed)
        parts = path.removesuffix(".html").split("/")
        if not path.endswith(".html") or len(parts) not in (2, 3):
            return None
        if len(parts) == 2 and parts[0] == "games":
            return self.replay(paths.unsafe_file_name(parts[1]))
        if len(parts) == 2 and parts[0] == "leagues":
            return self.league(paths.unsafe_file_name(parts[1]))
        if len(parts) == 3 and parts[0] == "bots":
            return self.bot(paths.unsafe_file_name(parts[1]), parts[2])
        return None

    # -- the pages --------------------------------------------------------------------------

    def leaderboards(self) -> str:
        boards = []
        for title in titles(self.db):
            rows = queries.board(self.db, title, self.keys)
            boards.append((title, rows, queries.rating_chart(self.db, title, rows)))
        return self._page(
            paths.INDEX, "index.html", "Leaderboards", "leaderboards", boards=boards, charts=True
        )

    def games_list(self, shown: GameFilter, page: int) -> str | None:
        found = self._games_page(shown, page)
        if page > found.pages:
            return None
        describe = {
            "title": "of {}",
            "bot": "with {}",
            "league": "of league {}",
            "fault": "with a fault{}",
        }.get(shown.kind, "{}").format(shown.value)
        return self._page(
            paths.games_list_page(shown, page),
            "games.html",
            "Games",
            "games",
            found=found,
            shown=shown,
            describe=describe,
            filters=[
                ("title", [GameFilter("title", t) for t in titles(self.db)]),
                ("league", [GameFilter("league", league.name) for league in self._leagues()]),
                (
                    "bot",
                    sorted(
                        {GameFilter("bot", k.label) for k in self.keys.values()},
                        key=lambda f: f.value,
                    ),
                ),
            ],
            no_filter=GameFilter(),
            fault_filter=GameFilter("fault"),
        )

    def bot(self, title: str, file_name: str) -> str | None:
        key = next((k for k in self.keys.values() if k.file_name == file_name), None)
        if key is None or key.bot_id not in queries.bot_titles(self.db).get(title, []):
            return None
        report = queries.bot_report(self.db, key, title, self.keys)
        return self._page(
            paths.bot_page(title, key.file_name),
            "bot.html",
            key.display,
            "leaderboards",
            report=report,
            bot_filter=GameFilter("bot", key.label),
            sample=queries.TIMED_SEATS,
            charts=True,
        )

    def league_list(self) -> str:
        leagues = self._leagues()
        played = dict(
            self.db.execute(
                "SELECT league_id, count(*) FROM league_games GROUP BY league_id"
            ).fetchall()
        )
        return self._page(
            paths.LEAGUES,
            "leagues.html",
            "Leagues",
            "leagues",
            leagues=[(league, played.get(league.id, 0)) for league in leagues],
        )

    def league(self, name: str) -> str | None:
        league = LeagueStore(self.store).find(name)
        if league is None:
            return None
        standings = LeagueStore(self.store).standings(league)
        cells = {(h.a, h.b): h for h in standings.head_to_head}
        struck = {
            row[0]
            for row in self.db.execute(
                "SELECT label FROM league_disqualified WHERE league_id = ?", [league.id]
            )
        }
        return self._page(
            paths.league_page(name),
            "league.html",
            f"League {name}",
            "leagues",
            league=league,
            standings=standings,
            matrix={"labels": [b.label for b in standings.bots], "cells": cells},
            struck=struck,
            bot_keys={key.display: key for key in self.keys.values()},
            league_filter=GameFilter("league", name),
        )

    def replay(self, game_id: str) -> str | None:
        try:
            record = self.store.load_game(game_id)
        except GameNotFound:
            return None
        if record.game_id != game_id or not self.has_replay(game_id):  # a prefix: only exact
            return None  # ids have pages
        return replay_html(record, generator=self.replay_stamp(game_id))

    def replay_stamp(self, game_id: str) -> str | None:
        """What a written replay page of ``game_id`` is stamped with: the site's generator
        (the code that draws it) and a digest of the game's row, which a game replayed under
        the same id (a league run again with the same seeds into another database) does not
        share: its times differ. None when pages are not stamped (served, or not written)."""
        if self.generator is None:
            return None
        row = self.db.execute("SELECT * FROM games WHERE id = ?", [game_id]).fetchone()
        digest = hashlib.blake2b(orjson.dumps(row), digest_size=8).hexdigest()
        return f"{self.generator} game {digest}"

    # -- helpers ----------------------------------------------------------------------------

    def _games_page(self, shown: GameFilter, page: int) -> queries.GamesPage:
        """Page ``page`` of a games list: with lists_in_order, the pages of a list asked for
        in order are read in one pass (queries.games_pages), not each with its own query;
        otherwise, or out of order, a page is read alone."""
        if self.lists_in_order:
            held = self._in_order.pop(shown, None)
            if held is not None and held[0] != page:
                held[1].close()
                held = None
            if held is None and page == 1:
                held = (1, queries.games_pages(self.db, shown, self.keys))
            if held is not None:
                found = next(held[1], None)
                if found is not None:
                    self._in_order[shown] = (page + 1, held[1])
                    return found
        return queries.games_page(self.db, shown, page, self.keys)

    def _filters(self) -> Iterator[GameFilter]:
        for title in titles(self.db):
            yield GameFilter("title", title)
        for league in self._leagues():
            yield GameFilter("league", league.name)
        for label in sorted({key.label for key in self.keys.values()}):
            yield GameFilter("bot", label)

    def _leagues(self) -> list[LeagueRow]:
        return [
            LeagueRow(*row)
            for row in self.db.execute(
                "SELECT id, name, title, fingerprint, games, path FROM leagues ORDER BY id"
            )
        ]

    def _bot_links(self, path: str, context: dict[str, Any]) -> Callable[[Any, str], Any]:
        """bot_link (macros.html) for pages at the depth of ``path``, each bot's link rendered
        once: the games tables link a bot in every row, and a macro call per seat was most of
        the cost of a games-list page (a report writes thousands of them). ``context`` is the
        page's, which the macro reads its ``url`` and ``bot_page`` from."""
        links = self._links_by_depth.setdefault(path.count("/"), {})
        macros: Any = None

        def bot_link(key: queries.BotKey, title: str) -> Any:
            nonlocal macros
            link = links.get((title, key.bot_id))
            if link is None:
                if macros is None:
                    macros = environment().get_template("macros.html").make_module(context)
                link = links[title, key.bot_id] = macros.bot_link(key, title)
            return link

        return bot_link

    def _page(self, path: str, template: str, heading: str, section: str, **data: Any) -> str:
        url: Callable[[str], str] = lambda to: paths.relative(path, to)  # noqa: E731
        context: dict[str, Any] = {}
        context.update(
            root=paths.root_of(path),
            nav=True,
            url=url,
            heading=heading,
            section=section,
            live=self.live,
            seq=self.seq,
            charts=data.pop("charts", False),
            footer=f"{GENERATOR} · {self.seq} game(s) · "
            f"{datetime.now(UTC).isoformat(timespec='seconds')}",
            bot_page=lambda title, key: paths.bot_page(
                title, key if isinstance(key, str) else key.file_name
            ),
            game_page=paths.game_page,
            has_replay=self.has_replay,
            bot_link_once=self._bot_links(path, context),
            league_page=paths.league_page,
            list_page=paths.games_list_page,
            **data,
        )
        return environment().get_template(template).render(context)
