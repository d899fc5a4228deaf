"""The replay viewer in headless Chromium: stepping, each title's drawing, and a seat's page
showing nothing of another seat's hidden cards."""

from __future__ import annotations

import json
import shutil
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from arena.record import GameRecord
from arena.replay import _replay
from arena.web.replay_data import side_views
from arena.web.replay_page import render_replay, render_standalone_replay
from tests.support.replay_games import TITLES, played

XSS = "<script>alert(1)</script>"
DRAWN = {"corruption": ".government", "intrigue": ".palace", "paranoia": ".troubleshooter"}
"""An element every drawing of the title has (one per government, palace, troubleshooter)."""
SEAT = 1
"""The seat whose own page the leak tests open."""
PLAYERS = 3
"""Every title at its smallest table: the tests step through each game twice, one redraw a
step, and a 3-seat game has a quarter fewer steps than a
4-seat one while holding all they look for: a faulted seat, a hostile name, hidden cards."""


@pytest.fixture(scope="module")
def games() -> dict[str, GameRecord]:
    """One game per title; seat 2 faults (an illegal answer), seat 0 has a hostile name."""
    names = [XSS] + [f"bot{s}" for s in range(1, PLAYERS)]
    return {title: played(title, PLAYERS, names=names, faulty_seat=2)[0] for title in TITLES}


@pytest.fixture(scope="module")
def site(games, tmp_path_factory) -> Path:
    """The pages laid out as the static site has them: games/<id>.html, assets in static/;
    a seat's own page as `arena show --seat N --html` writes it, one file."""
    out = tmp_path_factory.mktemp("replays")
    static = resources.files("arena.web").joinpath("static")
    shutil.copytree(str(static), out / "static")
    (out / "games").mkdir()
    for record in games.values():
        page = render_replay(record, asset_prefix="../static/", home="../index.html")
        (out / "games" / f"{record.game_id}.html").write_text(page, encoding="utf-8")
        own = render_standalone_replay(record, only_seat=SEAT)
        (out / "games" / f"{record.game_id}-seat{SEAT}.html").write_text(own, encoding="utf-8")
    return out


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("replay-screenshots")


def opened(page, serve_directory, site: Path, name: str):
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.goto(f"{serve_directory(site)}/games/{name}.html")
    page.wait_for_selector("#board > *")
    return dialogs


DRAWING = """() => {
  // what is drawn, each part's HTML as a short digest (a whole game's drawings stay small)
  const digest = (text) => {
    let h = 0;
    for (let i = 0; i < text.length; i++) h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0;
    return text.length + ":" + h;
  };
  const html = (id) => document.getElementById(id).innerHTML;
  return {counter: document.getElementById('counter').textContent,
          decision: html('decision'), board: digest(html('board')),
          events: digest(html('events')), slider: document.getElementById('slider').value};
}"""


def drawing(page) -> dict[str, str]:
    """What the viewer shows now: the counter, the decision bar and digests of the rest."""
    return page.evaluate(DRAWING)


WALK = (
    """([how, what, times]) => {
  // `times` presses of a key (a keydown on the page, as a key press sends) or clicks on a
  // button, in the page itself: one round trip for a whole walk, not one per step
  const drawing = """
    + DRAWING
    + """;
  const press = how === "key"
    ? () => document.body.dispatchEvent(
        new KeyboardEvent("keydown", {key: what, bubbles: true, cancelable: true}))
    : () => document.getElementById(what).click();
  const drawings = [];
  for (let i = 0; i < times; i++) {
    press();
    drawings.push(drawing());
  }
  return drawings;
}"""
)


def walked(page, how: str, what: str, times: int) -> list[dict[str, str]]:
    """The drawing after each of `times` presses of key `what` (how="key") or clicks on the
    button with id `what` (how="click"), through the viewer's own handlers. Driven from inside
    the page: a Playwright round trip per step made a PARANOIA walk cost a minute."""
    return page.evaluate(WALK, [how, what, times])


def test_the_viewer_steps_and_a_hostile_name_stays_text(page, serve_directory, site, games):
    record = games["corruption"]
    dialogs = opened(page, serve_directory, site, record.game_id)
    steps = len(record.decisions) + 1
    assert page.locator("#counter").inner_text().startswith(f"step 1 of {steps}")
    before = drawing(page)
    page.keyboard.press("ArrowRight")
    after = drawing(page)
    assert after["counter"].startswith(f"step 2 of {steps}") and after["board"] != before["board"]
    page.keyboard.press("ArrowLeft")
    assert drawing(page) == before
    assert page.locator(".government").count() == 3
    assert XSS + "@1.0" in page.locator(".result").inner_text()
    assert XSS + "@1.0" in page.locator("#side").inner_text()
    assert page.locator("script:not([src]):not([type])").count() == 0, "no script from a name"
    assert not dialogs


@pytest.mark.slow
@pytest.mark.parametrize("title", TITLES)
def test_the_viewer_steps_through_a_whole_game_and_back(
    title, page, serve_directory, site, games, shots
):
    record = games[title]
    steps = len(record.decisions) + 1
    opened(page, serve_directory, site, record.game_id)
    forward = [drawing(page)]
    page.keyboard.press("ArrowRight")  # a real key press first: the handler is wired
    forward.append(drawing(page))
    forward += walked(page, "key", "ArrowRight", steps - 2)
    assert [d["counter"].split(" ·")[0] for d in forward] == [
        f"step {n} of {steps}" for n in range(1, steps + 1)
    ]
    assert len({d["board"] for d in forward}) > steps // 4, "the drawing follows the game"
    page.keyboard.press("ArrowRight")
    assert drawing(page) == forward[-1], "the last step is the last"
    page.screenshot(path=str(shots / f"{title}-end.png"), full_page=True)
    page.click("#back")  # a real click first, then the rest of the way back in the page
    backward = [drawing(page), *walked(page, "click", "back", steps - 2)]
    for n, shown in zip(range(steps - 2, -1, -1), backward, strict=True):
        assert shown == forward[n], f"going back to step {n + 1} redraws it exactly"
    for n in (steps // 2, steps // 3, steps - 1, 0):
        page.evaluate(
            "(n) => { const s = document.getElementById('slider'); s.value = n;"
            " s.dispatchEvent(new Event('input')); }",
            n,
        )
        assert drawing(page) == forward[n]
    page.click("#last")
    assert drawing(page) == forward[-1]
    page.click("#first")
    assert drawing(page) == forward[0]
    page.click("#forward")
    assert drawing(page) == forward[1]
    assert page.locator(f"#board {DRAWN[title]}").count() == (
        3 if title == "corruption" else record.players
    )
    # the fault shows at the decision the referee first played for the faulted seat
    faulted = [shown for shown in forward if "fault: illegal" in shown["decision"]]
    assert len(faulted) == 1 and "played by the referee" in faulted[0]["decision"]
    page.keyboard.press("End")
    page.keyboard.press("ArrowLeft")
    walked(page, "key", "ArrowLeft", steps // 2 - 1)
    middle = forward[steps - 1 - steps // 2]
    assert drawing(page) == middle
    page.screenshot(path=str(shots / f"{title}-table.png"), full_page=True)
    page.select_option("#side", "0")
    seat_side = drawing(page)
    assert seat_side["counter"] == middle["counter"] and seat_side["board"] != middle["board"]
    assert page.locator("#stopped").is_hidden()
    page.screenshot(path=str(shots / f"{title}-seat0.png"), full_page=True)
    page.select_option("#side", "2")  # seat 2 faulted early in the game: its bot was stopped
    assert "was stopped at its fault" in page.locator("#stopped").inner_text()
    page.screenshot(path=str(shots / f"{title}-seat2-faulted.png"), full_page=True)


def hidden_from(title: str, table: dict[str, Any], seat: int) -> tuple[list[str], list[int]]:
    """From the table view: the names of cards only other seats hold (not also visible to
    `seat`), and (Corruption) the placements `seat` may not see."""
    if title == "paranoia":
        cards = table["cards"]
        visible = set(table["hands"][seat]) | {p["card"] for p in table["chain"]}
        visible |= {c["card"] for c in table["table"]}
        names = {
            cards[card]["name"]
            for other, hand in enumerate(table["hands"])
            if other != seat
            for card in hand
            if card not in visible
        }
        names -= {cards[card]["name"] for card in visible if card in cards}
        return sorted(names), []
    if title == "corruption":
        peeked = {peek["placement"] for peek in table["peeks"][seat]}
        placements = [
            card["placement"]
            for government in table["governments"]
            for place in [*(c["cards"] for c in government["contracts"]), government["swiss"]]
            for card in place
            if card["owner"] != seat
            and not card["face_up"]
            and not table["revealed"]
            and card["placement"] not in peeked
        ]
        return [], placements
    return [], []


SHOWN_AT_EVERY_STEP = """() => {
  // from the first step to the last by the viewer's own key handler, what each step shows:
  // the board's whole text (hidden elements too), each card placement's face, the cash lines;
  // it starts with the Home key, as a reader back at the deal
  const texts = (selector) =>
    Array.from(document.querySelectorAll(selector), (e) => e.textContent);
  const right = () => document.body.dispatchEvent(
    new KeyboardEvent("keydown", {key: "ArrowRight", bubbles: true, cancelable: true}));
  document.body.dispatchEvent(new KeyboardEvent("keydown", {key: "Home", bubbles: true}));
  const steps = Number(document.getElementById("slider").max) + 1;
  const shown = [];
  for (let i = 0; i < steps; i++) {
    if (i) right();
    const faces = {};
    for (const card of document.querySelectorAll("#board [data-placement]")) {
      (faces[card.dataset.placement] ??= []).push(card.querySelector(".face").textContent);
    }
    shown.push({counter: document.getElementById("counter").textContent,
                board: document.getElementById("board").textContent,
                faces: faces, cash: texts(".palace .cash")});
  }
  return shown;
}"""


@pytest.mark.slow
@pytest.mark.parametrize("title", TITLES)
def test_a_seat_page_never_shows_another_seats_hidden_cards(
    title, page, serve_directory, site, games, shots
):
    record = games[title]
    opened(page, serve_directory, site, f"{record.game_id}-seat{SEAT}")
    data = page.locator("#replay-data").text_content()
    assert '"hands"' not in data and '"money"' not in data and '"deck"' not in data
    assert page.locator("#side option").all_inner_texts() == [f"seat {SEAT}: bot{SEAT}@1.0"]
    states = [(state.table_view(), state.view(SEAT)) for state, _ in _replay(record)]
    tables = [table for table, _ in states]
    embedded = json.loads(data)
    numbers = [step["number"] for step in embedded["steps"]]
    assert side_views(embedded, str(SEAT)) == [states[n][1] for n in numbers], (
        "the page's data holds exactly the views the seat was sent"
    )
    if title == "paranoia":  # a seat is not told of another's pass (every other move is public)
        assert len(numbers) < len(tables), "steps the seat was not part of are left out"
    page.keyboard.press("ArrowRight")  # a real key press, then the whole walk in the page
    assert page.locator("#counter").inner_text().startswith(f"step 2 of {len(numbers)}")
    shown = page.evaluate(SHOWN_AT_EVERY_STEP)
    assert [look["counter"].split(" ·")[0] for look in shown] == [
        f"step {n} of {len(numbers)}" for n in range(1, len(numbers) + 1)
    ]
    checked = 0
    for number, look in zip(numbers, shown, strict=True):
        names, placements = hidden_from(title, tables[number], SEAT)
        for name in names:
            assert name not in look["board"], f"step {number}: another seat's {name} is shown"
        for placement in placements:
            faces = look["faces"].get(str(placement))
            assert faces == ["?"], f"step {number}: hidden placement {placement} shows {faces}"
        if title == "intrigue":
            assert look["cash"].count("cash: secret") == record.players - 1
        checked += len(names) + len(placements)
    if title != "intrigue":
        assert checked, "the game had hidden cards to look for"
    page.screenshot(path=str(shots / f"{title}-own-seat.png"), full_page=True)
