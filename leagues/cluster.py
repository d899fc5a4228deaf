"""Leagues on a Dask cluster: an executor that plays a league's tasks on Dask workers.

Same seam as the local pool (leagues.execution): tasks in, (task, record) out as each game
finishes, the caller the single writer. The bots' folders travel with a worker plugin
(leagues.cluster_worker) and are verified on each worker; a game is a pure function of its
task and the plan, so the cluster plays exactly the games a local run plays.

Failures are told apart by where they happen. A bot's fault is inside the record, a result
like any other. A worker that dies (killed, machine lost) is Dask's to handle: its games in
flight are re-run on other workers, and each task's result reaches this process once, so
none is lost or stored twice; a game that finished on it but whose record had not yet been
fetched is submitted again from here. An exception raised on a worker (it cannot sandbox, a bot's
copy does not match its digest) stops the run with WorkerFailed, as in the local pool.
Dask distributed is an optional extra (`pip install 'arena[cluster]'`): it is imported only
when a cluster is asked for.
"""

from __future__ import annotations

import logging
import os
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from leagues.bundles import pack_all
from leagues.cluster_address import ClusterAddress
from leagues.execution import GamePlan, Results, WorkerFailed
from leagues.tasks import GameTask

INSTALL_HINT = "pip install 'arena[cluster]'"
_REFRESH_S = 1.0
"""How often the number of workers is asked of the scheduler (it can change at any time)."""
_CLEANUP_S = 10.0
_REPLAYS = 3
"""How many times a game whose finished record was lost with its worker is played again;
more losses of the same game mean the scheduler itself was stopped or restarted."""


class ClusterUnavailable(RuntimeError):
    """The cluster cannot be used; the message says what to do."""


def require_distributed() -> None:
    """Raise ClusterUnavailable (how to install it) when Dask distributed is missing."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise ClusterUnavailable(
            f"--cluster needs Dask distributed, which is not installed: {INSTALL_HINT}"
        ) from None


class DaskExecutor:
    """Plays tasks on a Dask cluster; at most two tasks per worker thread are in flight, so
    the scheduler's and this process's memory stay flat however long the league."""

    def __init__(
        self,
        plan: GamePlan,
        address: ClusterAddress,
        *,
        workers: int = 1,
        on_workers: Callable[[int], None] | None = None,
    ) -> None:
        require_distributed()
        self.plan = plan
        self.address = address
        self.workers = workers
        """Workers of a local cluster when the address does not say."""
        self.on_workers = on_workers
        """Called with the number of workers whenever it is known to have changed."""
        self.bundles = pack_all(plan.manifests)

    def run(self, tasks: Iterable[GameTask]) -> Results:
        from distributed import as_completed

        from leagues.cluster_worker import LeaguePlugin, play

        client, cluster = self._connect()
        try:
            checked = _check_workers_code(client)
        except BaseException:
            _stop(client, cluster, [], None)
            raise
        # One plugin per league: a new run of the same league replaces the one a killed head
        # left behind (its bots are stopped) instead of adding a second set of bots.
        name = f"arena-league-{self.plan.game_id_prefix}"
        run_token = os.urandom(4).hex()  # keys of this run never meet a dead run's
        in_flight: dict[Any, GameTask] = {}
        replays: dict[int, int] = {}
        try:
            client.register_plugin(LeaguePlugin(name, self.plan, self.bundles), name=name)
            capacity = _Capacity(client, self.on_workers, checked)
            # Results are fetched by the client's event loop as they finish, not one round
            # trip at a time from this thread.
            completed = as_completed(with_results=True, raise_errors=False)
            todo = iter(tasks)

            def submit(task: GameTask) -> None:
                replay = replays.get(task.index, 0)
                key = f"{name}-{task.index}-{run_token}" + (f"-replay{replay}" if replay else "")
                future = client.submit(play, name, task, key=key, pure=False)
                in_flight[future] = task
                completed.add(future)

            def feed() -> None:
                while len(in_flight) < capacity.window():
                    task = next(todo, None)
                    if task is None:
                        return
                    submit(task)

            feed()
            for future, record in completed:
                task = in_flight.pop(future)
                if future.status == "lost" and replays.get(task.index, 0) < _REPLAYS:
                    # The game finished, but the worker that held its record died before the
                    # record reached this process (Dask keeps a result on the worker that made
                    # it until it is fetched): play it again, under a key of its own. A game is
                    # a function of its task, so the replay is the same game.
                    future.cancel()
                    replays[task.index] = replays.get(task.index, 0) + 1
                    submit(task)
                    continue
                if future.status != "finished":
                    raise WorkerFailed(_describe(future, task))
                future.release()
                try:
                    feed()
                except ClusterUnavailable:  # a worker of another arena joined
                    yield task, record  # this game is recorded before the league stops
                    raise
                yield task, record
        finally:
            _stop(client, cluster, list(in_flight), name)

    def _connect(self) -> tuple[Any, Any]:
        from distributed import Client, LocalCluster

        if self.address.scheduler is None:
            with _ctrl_c_for_this_process_only():
                cluster = LocalCluster(
                    n_workers=self.address.local_workers or self.workers,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                    silence_logs=logging.ERROR,
                )
            return Client(cluster), cluster
        try:
            return Client(self.address.scheduler, timeout="10s"), None
        except (OSError, TimeoutError, ValueError) as exc:
            raise ClusterUnavailable(
                f"cannot reach the Dask scheduler at {self.address.scheduler} ({exc}); start "
                "one with `dask scheduler` and give its address, or use --cluster local"
            ) from None


@contextmanager
def _ctrl_c_for_this_process_only() -> Iterator[None]:
    """Start a local cluster's worker processes with Ctrl-C ignored (an ignored signal stays
    ignored in a program it starts): a Ctrl-C at the terminal reaches them too, and it is
    this process's to handle, by stopping them in order, not theirs to die of mid-game."""
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread may change signal handlers
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


class _Capacity:
    """Two tasks per worker thread of the cluster, asked of the scheduler now and then."""

    def __init__(
        self, client: Any, on_workers: Callable[[int], None] | None, checked: set[str]
    ) -> None:
        self.client = client
        self.on_workers = on_workers
        self.checked = set(checked)
        """The workers (addresses) found running this head's arena."""
        self.asked_at = float("-inf")
        self.workers = -1
        self.threads = 1

    def window(self) -> int:
        now = time.monotonic()
        if now - self.asked_at >= _REFRESH_S:
            self.asked_at = now
            threads = self.client.nthreads()
            self.threads = max(1, sum(threads.values()))
            new = set(threads) - self.checked
            if new:
                # Workers joined (or replaced others) since the head's check: a worker of an
                # arena older than the plugin's own check would play unrefused.
                try:
                    self.checked |= _check_workers_code(self.client, new)
                except ClusterUnavailable as exc:
                    raise ClusterUnavailable(
                        f"{exc}. Finished games are recorded: rerun the same command to resume"
                    ) from None
            if len(threads) != self.workers:
                self.workers = len(threads)
                if self.on_workers is not None:
                    self.on_workers(self.workers)
        return 2 * self.threads


def _check_workers_code(client: Any, joined: set[str] | None = None) -> set[str]:
    """The workers found running this head's arena; ClusterUnavailable, naming them, when
    some run another. Asked of every worker before the league is sent, and of the workers
    ``joined`` since (each refresh of _Capacity): a worker joining in between is refused by
    the league's plugin (an arena that has the plugin's check), or by this check at the next
    refresh. Of joined workers, one that fails to answer for another reason than not knowing
    the question (it is dying, say) is left to the league's handling of dead workers, not
    taken for another arena (nor counted as checked: it is asked again if it stays)."""
    from leagues.cluster_worker import code_identity

    mine = code_identity()
    mid_league = joined is not None
    if not mid_league:
        theirs = client.run(code_identity, on_error="return")
    else:
        try:
            theirs = client.run(code_identity, on_error="return", workers=sorted(joined or ()))
        except Exception:  # gone before it could be asked: nothing learnt, asked again if back
            return set()
    other = {
        worker: found if isinstance(found, str) else f"an arena that cannot say ({found!r})"
        for worker, found in sorted(theirs.items())
        if found != mine
        and (not mid_league or isinstance(found, str | ImportError | AttributeError))
    }
    if other:
        listed = "; ".join(f"{worker} runs {found}" for worker, found in other.items())
        raise ClusterUnavailable(
            f"this head runs {mine}, but {listed}: install the same arena (the same release, "
            "or the same commit) on the head and every worker"
        )
    return {worker for worker, found in theirs.items() if found == mine}


def _describe(future: Any, task: GameTask) -> str:
    """Why a game's task did not finish, for WorkerFailed."""
    from distributed import KilledWorker

    if future.status != "error":  # cancelled or lost, by the scheduler rather than a worker
        return (
            f"the cluster dropped game {task.index} ({future.status}): was the scheduler "
            "stopped or restarted?"
        )
    error = future.exception()
    if isinstance(error, KilledWorker):
        return (
            f"game {task.index} was running on {error.allowed_failures + 1} workers that each "
            "died; look at the workers' logs (out of memory?)"
        )
    return f"a cluster worker failed on game {task.index}: {type(error).__name__}: {error}"


def _stop(client: Any, cluster: Any, futures: list[Any], plugin: str | None) -> None:
    """Drop the games in flight, stop the league's bots on every worker (its plugin, if
    registered), disconnect. Each step is best effort: the scheduler may be what failed."""
    steps: list[Callable[[], object]] = [lambda: client.cancel(futures)]
    if plugin is not None:
        steps.append(lambda: client.unregister_worker_plugin(plugin))
    steps.append(lambda: client.close(timeout=_CLEANUP_S))
    if cluster is not None:
        steps.append(lambda: cluster.close(timeout=_CLEANUP_S))
    for step in steps:
        try:
            step()
        except Exception:  # pragma: no cover - a scheduler gone meanwhile
            logging.getLogger(__name__).debug("cluster cleanup step failed", exc_info=True)
