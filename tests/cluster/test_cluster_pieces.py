"""The parts of cluster leagues that need no cluster, and the refusals that need one: the
--cluster address, the extra not installed, shipped bot folders verified on arrival, a worker
that cannot sandbox."""

from __future__ import annotations

import asyncio
import io
import os
import re
import sys
import tarfile
import threading
import time
from types import SimpleNamespace

import pytest
from distributed import Reschedule
from typer.testing import CliRunner

from arena.cli.app import app
from arena.manifest import load_bot
from arena.store import open_store
from leagues import cluster_worker
from leagues.bundles import BotBundle, BundleMismatch, pack, pack_all, unpack
from leagues.cluster import ClusterUnavailable, DaskExecutor, _Capacity
from leagues.cluster_address import ClusterAddress, parse_cluster
from leagues.cluster_worker import IDLE_S, LeaguePlugin
from leagues.execution import WorkerFailed
from leagues.runner import prepare_league, run_league
from leagues.spec import LeagueFileError, load_league
from tests.support.leagues import write_league


def run_cli(*args: object):
    return CliRunner().invoke(app, [str(a) for a in args], catch_exceptions=False)


def test_cluster_addresses():
    assert parse_cluster("tcp://10.0.0.5:8786") == ClusterAddress(scheduler="tcp://10.0.0.5:8786")
    assert parse_cluster("local") == ClusterAddress()
    assert parse_cluster("local:3") == ClusterAddress(local_workers=3)
    for wrong in ("10.0.0.5:8786", "local:0", "local:x", "", "://x"):
        with pytest.raises(ValueError, match="local"):
            parse_cluster(wrong)


def test_a_wrong_cluster_address_is_a_usage_error(tmp_path):
    result = run_cli(
        "league", "run", write_league(tmp_path), "--db", tmp_path / "a.db", "--cluster", "8786"
    )
    assert result.exit_code == 2
    assert "a cluster address is tcp://HOST:PORT" in result.output
    assert not (tmp_path / "a.db").exists(), "refused before anything was written"


def test_cluster_without_the_extra_says_how_to_install_it(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    monkeypatch.setenv("COLUMNS", "200")
    result = run_cli(
        "league", "run", write_league(tmp_path), "--db", tmp_path / "a.db", "--cluster", "local"
    )
    assert result.exit_code == 2
    assert "pip install 'arena[cluster]'" in result.output
    assert len(result.output.strip().splitlines()) == 1, "one clear line"


def test_a_shipped_bot_is_unpacked_and_verified_into_the_workers_own_cache(
    bundled_bot, tmp_path, monkeypatch
):
    manifest = load_bot(bundled_bot("random"))
    bundle = pack(manifest)
    monkeypatch.setenv("ARENA_CACHE", str(tmp_path / "worker-cache"))
    copy = unpack(bundle, tmp_path / "staging")
    assert copy == tmp_path / "worker-cache" / "bots" / manifest.digest
    assert sorted(p.name for p in copy.iterdir()) == sorted(
        p.name for p in manifest.snapshot.iterdir()
    )
    assert (copy / "bot.toml").read_bytes() == (manifest.snapshot / "bot.toml").read_bytes()
    assert list((tmp_path / "staging").iterdir()) == [], "the staging copy is removed"


def test_a_shipped_bot_that_is_not_the_recorded_one_is_refused(bundled_bot, tmp_path, monkeypatch):
    monkeypatch.setenv("ARENA_CACHE", str(tmp_path / "worker-cache"))
    other = pack(load_bot(bundled_bot("corruption-greedy")))
    claimed = BotBundle("random", load_bot(bundled_bot("random")).digest, other.archive)
    with pytest.raises(BundleMismatch, match="refusing to run a different bot"):
        unpack(claimed, tmp_path / "staging")


def test_a_shipped_archive_cannot_write_outside_its_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("ARENA_CACHE", str(tmp_path / "worker-cache"))
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        data = b"pwned"
        member = tarfile.TarInfo("../escaped.txt")
        member.size = len(data)
        archive.addfile(member, io.BytesIO(data))
    with pytest.raises(BundleMismatch, match="unusable"):
        unpack(BotBundle("evil", "0" * 16, buffer.getvalue()), tmp_path / "staging" / "in")
    assert not (tmp_path / "staging" / "escaped.txt").exists()


@pytest.mark.slow  # a scheduler and a worker
def test_a_worker_that_cannot_sandbox_refuses_to_play(tmp_path, start_cluster, bot_processes):
    league = write_league(tmp_path, games=4)
    no_bwrap = {"PATH": os.path.dirname(sys.executable)}  # bwrap is not on this PATH
    with start_cluster(workers=1, worker_env=no_bwrap) as cluster:
        with open_store(tmp_path / "a.db", create=True) as store:
            prepared = prepare_league(load_league(league), store, log_dir=None)
            executor = DaskExecutor(prepared.plan, ClusterAddress(scheduler=cluster.address))
            with pytest.raises(WorkerFailed, match=r"cannot be sandboxed here.*bubblewrap"):
                run_league(prepared, store, workers=1, executor=executor)
            assert store.db.execute("SELECT count(*) FROM games").fetchone()[0] == 0
        assert bot_processes(cluster.caches[0]) == [], "no bot was started"


@pytest.mark.slow  # one game with real bot processes
def test_a_workers_bots_idle_for_a_minute_are_stopped(tmp_path, bot_processes, own_snapshot_cache):
    """How the bots of a head killed outright go: its plugin stays, but its bots do not."""
    league = write_league(tmp_path, games=3)
    with open_store(tmp_path / "a.db", create=True) as store:
        prepared = prepare_league(load_league(league), store, log_dir=None)
    plugin = LeaguePlugin("arena-league-test", prepared.plan, pack_all(prepared.plan.manifests))

    async def on_a_worker() -> None:  # setup runs on the worker's event loop
        plugin.setup(SimpleNamespace(local_directory=str(tmp_path / "worker")))

    asyncio.run(on_a_worker())
    try:
        player = plugin.player()
        player.play(prepared.pending[0])
        plugin.done()
        assert bot_processes(own_snapshot_cache) != [], "its bots wait for the next game"
        assert plugin.reap_idle(time.monotonic() + IDLE_S / 2) == 0, "not idle long enough"
        assert plugin.reap_idle(time.monotonic() + IDLE_S) == 1
        assert bot_processes(own_snapshot_cache) == []
        plugin.player().play(prepared.pending[1])  # a later game starts them again
        plugin.done()
    finally:
        plugin.teardown(None)
    assert bot_processes(own_snapshot_cache) == []


def test_a_league_file_can_name_its_cluster(tmp_path, monkeypatch):
    league = write_league(tmp_path, extra='[cluster]\naddress = "local:2"\n')
    assert load_league(league).cluster == "local:2"
    monkeypatch.setitem(sys.modules, "distributed", None)  # so the run stops at the import
    result = run_cli("league", "run", league, "--db", tmp_path / "a.db")
    assert result.exit_code == 2 and "pip install 'arena[cluster]'" in result.output, (
        "without --cluster, the file's [cluster] address is used"
    )


@pytest.mark.parametrize(
    ("table", "problem"),
    [
        ('address = "8786"', "a cluster address is tcp://HOST:PORT"),
        ("address = 8786", "cluster.address must be a string"),
        ('adress = "local"', "adress"),
    ],
)
def test_a_wrong_cluster_table_is_refused_with_its_line(tmp_path, table, problem):
    league = write_league(tmp_path, extra=f"[cluster]\n{table}\n")
    with pytest.raises(LeagueFileError, match=re.escape(problem)) as error:
        load_league(league)
    assert ":9" in str(error.value) or "line 9" in str(error.value), str(error.value)


@pytest.mark.slow  # a game with real bot processes
def test_a_game_whose_bots_were_stopped_under_it_is_played_again_not_recorded(
    tmp_path, monkeypatch, make_bot, bot_processes, own_snapshot_cache
):
    """A worker closing (or the run being replaced) stops its bots mid-game: their faults are
    not theirs, so the game is rescheduled, never returned as a result."""
    sleeper = make_bot("sleep", at=1)  # keeps the game waiting on its first decision
    league = write_league(tmp_path, games=3)
    league.write_text(league.read_text().replace("copies = 3}]", f'copies = 2}}, "{sleeper}"]'))
    prepared, plugin = plugin_on_a_worker(tmp_path, league, monkeypatch)
    task = next(t for t in prepared.pending if len(set(t.seating)) == 3)  # seats the sleeper
    outcome: list[object] = []

    def game() -> None:
        try:
            outcome.append(cluster_worker.play(plugin.name, task))
        except Reschedule as exc:
            outcome.append(exc)

    thread = threading.Thread(target=game)
    thread.start()
    deadline = time.monotonic() + 60
    while not bot_processes(own_snapshot_cache) and time.monotonic() < deadline:
        time.sleep(0.02)  # the game has started its bots
    plugin.teardown(None)
    thread.join(timeout=60)
    assert len(outcome) == 1 and isinstance(outcome[0], Reschedule)
    assert bot_processes(own_snapshot_cache) == []


@pytest.mark.slow  # a game with real bot processes
def test_bots_a_game_starts_after_its_plugin_closed_are_stopped_too(
    tmp_path, monkeypatch, bot_processes, own_snapshot_cache
):
    """The run stops (teardown) after a thread took its player but before its game seated the
    bots: the game starts them afresh, and teardown no longer knows that player. A Ctrl-C once
    left such bots running on a worker after the head had stopped."""
    league = write_league(tmp_path, games=1)
    prepared, plugin = plugin_on_a_worker(tmp_path, league, monkeypatch)
    take_player = plugin.player

    def player_then_the_run_stops():  # type: ignore[no-untyped-def]
        player = take_player()
        plugin.teardown(None)
        return player

    monkeypatch.setattr(plugin, "player", player_then_the_run_stops)
    with pytest.raises(Reschedule):
        cluster_worker.play(plugin.name, prepared.pending[0])
    assert bot_processes(own_snapshot_cache) == []


def plugin_on_a_worker(tmp_path, league, monkeypatch):  # type: ignore[no-untyped-def]
    """The league prepared, and its plugin set up as a worker would, found by play()."""
    with open_store(tmp_path / "a.db", create=True) as store:
        prepared = prepare_league(load_league(league), store, log_dir=None)
    plugin = LeaguePlugin("arena-league-test", prepared.plan, pack_all(prepared.plan.manifests))

    async def on_a_worker() -> None:
        plugin.setup(SimpleNamespace(local_directory=str(tmp_path / "worker")))

    asyncio.run(on_a_worker())
    monkeypatch.setattr(
        cluster_worker, "get_worker", lambda: SimpleNamespace(plugins={plugin.name: plugin})
    )
    return prepared, plugin


@pytest.mark.slow  # a scheduler and a worker
def test_workers_running_another_arena_are_named_and_nothing_is_played(
    tmp_path, start_cluster, bot_processes, monkeypatch
):
    """The head asks every worker which arena it runs before sending the league: here the
    head's version is changed (in this process only), so the real worker differs."""
    import arena

    league = write_league(tmp_path, games=4)
    with start_cluster(workers=1) as cluster:
        monkeypatch.setattr(arena, "__version__", "0.0.0-not-the-workers")
        result = run_cli(
            "league", "run", league, "--db", tmp_path / "a.db", "--cluster", cluster.address
        )
        monkeypatch.undo()
        worker = cluster_worker.code_identity()  # what the worker runs: this checkout
        assert result.exit_code == 1, result.output
        said = " ".join(result.output.split())
        assert "this head runs arena 0.0.0-not-the-workers (code " in said
        assert f"runs {worker}: install the same arena" in said
        with open_store(tmp_path / "a.db", create=False) as store:
            assert store.db.execute("SELECT count(*) FROM games").fetchone()[0] == 0
        assert bot_processes(cluster.caches[0]) == [], "no bot was started"


def test_a_worker_joining_with_another_arena_refuses_every_game(tmp_path, monkeypatch):
    """A worker that joins after the head's check gets the league's plugin, which carries the
    head's arena: it plays nothing, and says why (the head stops with WorkerFailed)."""
    league = write_league(tmp_path, games=3)
    with open_store(tmp_path / "a.db", create=True) as store:
        prepared = prepare_league(load_league(league), store, log_dir=None)
    plugin = LeaguePlugin("arena-league-test", prepared.plan, pack_all(prepared.plan.manifests))
    plugin.head_code = "arena 9.9 (code 0000000000000000)"  # as a head of another arena made it

    async def on_a_worker() -> None:
        plugin.setup(SimpleNamespace(local_directory=str(tmp_path / "worker")))

    asyncio.run(on_a_worker())
    try:
        with pytest.raises(
            RuntimeError,
            match=r"this worker runs arena .* the league's head "
            r"arena 9\.9 \(code 0+\): install the same arena",
        ):
            plugin.player()
    finally:
        plugin.teardown(None)


class WorkersAnswering:
    """A Dask client, for _Capacity: its workers (address -> what each answers code_identity
    with: a string, or the exception client.run returns with on_error="return")."""

    def __init__(self, **workers: object) -> None:
        self.workers = workers
        self.asked: list[list[str]] = []

    def nthreads(self) -> dict[str, int]:
        return {worker: 1 for worker in self.workers}

    def run(self, function, on_error, workers=None):
        asked = sorted(self.workers) if workers is None else workers
        self.asked.append(asked)
        return {worker: self.workers[worker] for worker in asked}


def refreshed(capacity: _Capacity) -> int:
    capacity.asked_at = float("-inf")  # the next window asks the scheduler again
    return capacity.window()


def test_the_head_checks_each_worker_that_joins_once() -> None:
    """A worker of an older arena (without the plugin's check) that joins mid-league is found
    by the head at its next look at the workers, even one that took the place of another (the
    count unchanged); one that fails to answer because it is dying is left to the league's
    handling of dead workers."""
    mine = cluster_worker.code_identity()
    client = WorkersAnswering(a=mine)
    capacity = _Capacity(client, None, {"a"})
    assert refreshed(capacity) == 2 and client.asked == [], "a was checked before the league"
    client.workers["c"] = OSError("connection closed")
    assert refreshed(capacity) == 4 and client.asked == [["c"]]
    client.workers["c"] = mine  # it answers now: asked again, then never more
    refreshed(capacity)
    refreshed(capacity)
    assert client.asked == [["c"], ["c"]]
    del client.workers["a"]  # a replaced by b: as many workers as before
    client.workers["b"] = "arena 0.0.1 (code 0123456789abcdef)"
    with pytest.raises(ClusterUnavailable, match=r"^[^;]*b runs arena 0\.0\.1 \(code 0123") as got:
        refreshed(capacity)
    assert str(got.value).endswith("Finished games are recorded: rerun the same command to resume")


def test_a_worker_too_old_to_know_the_question_is_refused_mid_league() -> None:
    client = WorkersAnswering(a=cluster_worker.code_identity())
    capacity = _Capacity(client, None, {"a"})
    client.workers["old"] = AttributeError("module has no attribute 'code_identity'")
    with pytest.raises(ClusterUnavailable, match="old runs an arena that cannot say"):
        refreshed(capacity)


@pytest.mark.slow  # a scheduler and a worker
def test_the_game_that_finished_as_another_arena_joined_is_recorded(
    tmp_path, start_cluster, monkeypatch
):
    """When the head finds a worker of another arena, the game whose end made it look is
    recorded before the league stops, as the message says."""
    window = _Capacity.window
    looks: list[int] = []

    def another_arena_once_a_game_finished(self: _Capacity) -> int:
        # The first feed() looks once per task it submits and once more (window + 1 looks);
        # the next look is the feed() after the first game finished.
        if looks and len(looks) == looks[0] + 1:
            raise ClusterUnavailable("tcp://x runs arena 0.0.1")
        size = window(self)
        looks.append(size)
        return size

    monkeypatch.setattr(_Capacity, "window", another_arena_once_a_game_finished)
    league = write_league(tmp_path, games=4)
    with start_cluster(workers=1) as cluster:
        result = run_cli(
            "league", "run", league, "--db", tmp_path / "a.db", "--cluster", cluster.address
        )
    assert result.exit_code == 1, result.output
    assert "tcp://x runs arena 0.0.1" in " ".join(result.output.split())
    with open_store(tmp_path / "a.db", create=False) as store:
        assert store.db.execute("SELECT count(*) FROM games").fetchone()[0] >= 1
