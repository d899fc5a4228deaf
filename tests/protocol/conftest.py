"""Fixtures for the protocol tests (helpers live in protocol_testkit)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from protocol_testkit import TRANSCRIPT_DIR, BotProcess, Schemas, load_transcript


@pytest.fixture(scope="session")
def schemas() -> Schemas:
    """The protocol's schemas, with validators."""
    return Schemas()


@pytest.fixture(scope="session")
def transcripts() -> dict[str, list[dict[str, Any]]]:
    """Every transcript by file name."""
    paths = sorted(TRANSCRIPT_DIR.glob("*.jsonl"))
    return {path.name: load_transcript(path.name) for path in paths}


@pytest.fixture
def start_bot() -> Iterator[Any]:
    """start_bot(argv, cwd) -> BotProcess; every process started is killed at teardown."""
    started: list[BotProcess] = []

    def start(argv: list[str], cwd: Path) -> BotProcess:
        bot = BotProcess(argv, cwd)
        started.append(bot)
        return bot

    yield start
    for bot in started:
        bot.kill()
