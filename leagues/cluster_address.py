"""Where a league is played: `--cluster`'s value, or a league file's [cluster] address."""

from __future__ import annotations

from dataclasses import dataclass

USAGE = "tcp://HOST:PORT (a running Dask scheduler) or local[:N] (N workers on this machine)"


@dataclass(frozen=True)
class ClusterAddress:
    """Where to play: a running scheduler, or a cluster started here for the run."""

    scheduler: str | None = None
    """The scheduler's address (tcp://HOST:PORT); None for a local cluster."""
    local_workers: int | None = None
    """Workers of a local cluster; None: as many as the league's workers."""

    def __str__(self) -> str:
        if self.scheduler is not None:
            return self.scheduler
        return "local" if self.local_workers is None else f"local:{self.local_workers}"


def parse_cluster(text: str) -> ClusterAddress:
    """`--cluster`'s value (or the league file's [cluster] address); ValueError saying what
    is expected when it is neither form."""
    text = text.strip()
    if text == "local":
        return ClusterAddress()
    if text.startswith("local:"):
        count = text.removeprefix("local:")
        if count.isdigit() and int(count) > 0:
            return ClusterAddress(local_workers=int(count))
        raise ValueError(f"local:N needs a positive number of workers, e.g. local:4, not {text!r}")
    scheme, _, rest = text.partition("://")
    if scheme and rest and scheme.isalnum():
        return ClusterAddress(scheduler=text)
    raise ValueError(f"a cluster address is {USAGE}, not {text!r}")
