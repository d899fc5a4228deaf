"""Helpers for the protocol tests: paths, the schemas, the transcripts, real bot processes."""

from __future__ import annotations

import json
import os
import queue
import re
import subprocess
import threading
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from referencing import Registry, Resource

ROOT = Path(__file__).resolve().parents[2]
PROTOCOL_DIR = ROOT / "protocol"
SCHEMA_DIR = PROTOCOL_DIR / "schemas"
TRANSCRIPT_DIR = PROTOCOL_DIR / "transcripts"

TO_BOT = ("hello", "game_start", "event", "events", "request", "game_over", "bye")
"""Schema names of the referee's messages, which are also their "type"."""
FROM_BOT = {"hello": "bot_hello", "action": "action"}
"""A bot message's "type" -> its schema name."""

_STRICT_TYPES = jsonschema.Draft202012Validator.TYPE_CHECKER.redefine(
    "integer", lambda _checker, value: isinstance(value, int) and not isinstance(value, bool)
)
StrictValidator = jsonschema.validators.extend(
    jsonschema.Draft202012Validator, type_checker=_STRICT_TYPES
)
"""Draft 2020-12 with the wire's notion of an integer: a JSON integer, never 1.0 (SPEC.md §2)."""


def _load_schemas() -> dict[str, dict[str, Any]]:
    return {path.stem: json.loads(path.read_text()) for path in sorted(SCHEMA_DIR.glob("*.json"))}


class Schemas:
    """The protocol's schemas by name, with validators that resolve their cross-references."""

    def __init__(self) -> None:
        self.raw = _load_schemas()
        self.registry: Registry = Registry().with_resources(
            (schema["$id"], Resource.from_contents(schema)) for schema in self.raw.values()
        )
        self._validators: dict[tuple[str, bool], jsonschema.Validator] = {}

    def validator(self, name: str, strict: bool = False) -> jsonschema.Validator:
        """A validator for one schema; strict means integers must be JSON integers (the wire)."""
        key = (name, strict)
        if key not in self._validators:
            cls = StrictValidator if strict else jsonschema.Draft202012Validator
            self._validators[key] = cls(self.raw[name], registry=self.registry)
        return self._validators[key]

    def for_message(self, direction: str, message: dict[str, Any]) -> jsonschema.Validator:
        """The strict validator for a message going in a direction ("to_bot" / "from_bot")."""
        kind = message.get("type")
        if direction == "to_bot":
            assert kind in TO_BOT, f"unknown referee message type {kind!r}"
            return self.validator(kind, strict=True)
        assert kind in FROM_BOT, f"unknown bot message type {kind!r}"
        return self.validator(FROM_BOT[kind], strict=True)


def load_transcript(name: str) -> list[dict[str, Any]]:
    """A transcript's lines: {"dir", "msg", optional "note" and "fault"}."""
    path = TRANSCRIPT_DIR / name
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


class BotProcess:
    """A bot run as a real subprocess, spoken to line by line; every read has a timeout."""

    def __init__(self, argv: list[str], cwd: Path) -> None:
        self.proc = subprocess.Popen(
            argv,
            cwd=cwd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={**os.environ, "PYTHONIOENCODING": "ascii"},  # the bot must not rely on a locale
        )
        self._lines: queue.Queue[bytes | None] = queue.Queue()
        self._stderr: list[bytes] = []
        threading.Thread(target=self._pump, daemon=True).start()
        threading.Thread(target=self._drain_stderr, daemon=True).start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self._lines.put(line)
        self._lines.put(None)

    def _drain_stderr(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self._stderr.append(line)

    @property
    def stderr(self) -> str:
        return b"".join(self._stderr).decode("utf-8", "replace")

    def send(self, message: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(message, ensure_ascii=False).encode() + b"\n")
        self.proc.stdin.flush()

    def receive(self, timeout: float = 10.0) -> dict[str, Any]:
        """The bot's next line as a JSON object; fails if none comes within timeout."""
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            pytest.fail(f"no line from the bot within {timeout} s (did it flush?)\n{self.stderr}")
        if line is None:
            pytest.fail(f"the bot closed its stdout (exit {self.proc.poll()})\n{self.stderr}")
        assert line.endswith(b"\n"), f"a line must end with a newline: {line!r}"
        message = json.loads(line)
        assert isinstance(message, dict), f"not a JSON object: {line!r}"
        return message

    def close_stdin(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()

    def wait(self, timeout: float = 10.0) -> int:
        """The exit status; fails if the bot has not exited within timeout."""
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            pytest.fail(f"the bot did not exit within {timeout} s\n{self.stderr}")

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=10)
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if stream is not None and not stream.closed:
                try:
                    stream.close()
                except OSError:
                    pass


def spec_code_blocks() -> list[tuple[str, str]]:
    """(language, code) of every fenced block in SPEC.md."""
    spec = (PROTOCOL_DIR / "SPEC.md").read_text(encoding="utf-8")
    return re.findall(r"```(\w*)\n(.*?)```", spec, flags=re.DOTALL)


def spec_minimal_bot() -> str:
    """The source of the minimal bot in SPEC.md §11."""
    (source,) = [code for lang, code in spec_code_blocks() if lang == "python" and "stdin" in code]
    return source
