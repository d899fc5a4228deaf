"""Attacks on the bot sandbox: hostile bots run for real, and the proof that each one failed.

Every attack is a real bot folder (bots/NAME/: bot.toml + bot.py) run as a real subprocess
under the real sandbox by the real referee (Lineup + play_game on the toy game, Intrigue where
its free text matters; the arena CLI where the CLI is the point). A test copies the folder into
its temporary directory together with attacklib.py (the protocol loop, raw system calls through
ctypes) and a params.json of what the bot needs to know (ports, host paths to go for), loads it
with load_bot, and plays. The bot attacks (at its first request unless said otherwise), writes
one line per attempt to its stderr log, ``ATTACK label outcome detail`` (blocked / SUCCEEDED /
info), and plays on. The tests assert on those lines AND on the host (play_match, Match,
assert_contained): what it reached of the host's listeners and files, its processes all in its
cgroup and running as its own bot user with no capabilities (looked at from the host while it
plays), the games complete with every other seat "ok", and, once the Lineup closed, no process
left with any user id the bots ran as, no cgroup directory left, no descriptor or child process
of the referee's left open. Read-only probes share one match per module.

Every attack is harmless should it succeed, even run as root with no sandbox at all (see
attacklib.py): a broken sandbox must fail these tests, not damage the machine running them.

The attacks, by bot (in brackets: the test module, test_attack_NAME.py):
  caps          capabilities, uid, groups, no_new_privs, seccomp mode; setuid(0), setgroups,
                capset, ambient caps, raising rlimits, setuid-root programs      [privileges]
  procfs        /proc/sysrq-trigger, /proc/kcore, kallsyms, /proc/sys, uid_map, kmsg, /sys
                                                                                  [privileges]
  descriptors   descriptors inherited from the referee (the seccomp pipe, its database)
                                                                                  [privileges]
  environment   the referee's environment (a secret set by the test), /proc/*/environ
                                                                                  [privileges]
  secrets       the referee's database, a league file, another bot's folder and snapshot, its
                own source folder, the referee's code, the snapshot cache, /root, /etc/shadow;
                every host file outside the system, Python and SDK folders       [filesystem]
  remount       mount -o remount,rw of /usr, the venv, the Python install, the SDK, /bot, /;
                umount /bot; mounts over it; the new mount API; chroot, pivot_root; a .pth
                planted in site-packages; files in /usr, /etc, the SDK            [filesystem]
  mknod         block devices of the host disk (made, read, mounted); /dev/mem, /dev/kmsg;
                /dev holding no host device                                       [filesystem]
  writable      every folder it can write to (only /tmp)                          [filesystem]
  coredump      a crashing child dumping core                                     [filesystem]
  disk          writes, chmod, rename, unlink in /bot; hard links out; /tmp filled past its
                64 MiB; a 200 MiB file; its marker looked for on the host after    [filesystem]
  link_out      shipped links to host secrets (absolute, relative), /etc/shadow, /, /dev/zero,
                a loop: copied as links, leading nowhere inside                     [snapshot]
  fifo_planter  a FIFO or a /dev/zero link planted in its folder mid-league; the folder
                reloaded                                                            [snapshot]
  rewriter      its own bot.py rewritten mid-league; the code run after a restart   [snapshot]
  (folders)     a FIFO, a socket, character and block devices, a 1 TiB sparse file, too many
                entries in a bot folder; manifest names and versions of 300 characters, with
                NUL, ../../x, rich markup, ANSI, a newline, a leading dash         [snapshot]
  cgroup_escape cgroupfs (v1 and v2) mounted to leave its cgroup; then forking      [processes]
  forkbomb      processes and threads past the cap, setsid and double forks       [processes]
  daemon        a double-forked, setsid, fd-closing, signal-ignoring grandchild; a stopped
                one; a zombie                                                     [processes]
  spy           /proc of others, pid 1's environ/root/mem, ptrace, process_vm_readv, kcmp,
                pidfd_getfd                                                       [processes]
  stop_referee  kill(-1, SIGSTOP/SIGKILL), its parent, pid 1, the referee's host pid; a
                harmless SIGWINCH the referee counts                              [processes]
  namespaces    unshare and clone with every namespace flag, clone3, setns, nested bwrap
                                                                                  [processes]
  tty           TIOCSTI into its streams and /dev/tty; also under `arena check` run from a
                terminal (a pty)                                                  [processes]
  memory        four children of 700 MiB each (2.8 GiB against a 2 GiB cap)      [resources]
  oom           its /tmp filled, then memory 32 MiB at a time: killed, and the fault says why
                                                                                  [resources]
  spinner       eight processes spinning while the others play (a 1-core cap)    [resources]
  realtime      SCHED_FIFO/RR/DEADLINE, sched_setattr, nice -1, setpriority -20, I/O class
                real-time                                                         [resources]
  kernel        keyctl, add_key, request_key, bpf, perf_event_open, io_uring, userfaultfd,
                open_by_handle_at, kexec, modules, reboot, swapon, acct, quotactl, iopl,
                sethostname, fanotify, settimeofday, vhangup; the x32 and i386 ABIs  [kernel]
  network       TCP and UDP to the test's listeners (loopback and the host's addresses),
                the host's abstract unix sockets, DNS, raw, packet and ping sockets [network]
  twin          two copies of one bot: /tmp, abstract and loopback sockets, SysV shared
                memory and message queues, a FIFO, each other's processes          [network]
  nested_json, bigint, surrogate_toy, surrogate_promise, hello_name: hostile answers and hello
                names: a fault with a reason, never a referee exception           [protocol]
  cli_markup, cli_escape, hello_name: bot text (markup, escape sequences) printed by
                `arena check`                                                      [protocol]
"""

from __future__ import annotations

import gc
import json
import os
import platform
import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from arena.containment.bubblewrap import FIRST_BOT_UID
from arena.containment.limits import DEFAULT_LIMITS, Limits
from arena.containment.snapshot import SKIPPED_DIRS
from arena.lineup import Lineup
from arena.manifest import load_bot
from arena.record import GameRecord
from arena.referee import TimeControl, play_game
from tests.support.paths import FAKEBOT
from tests.support.toygame import GAME

HERE = Path(__file__).resolve().parent
BOTS = HERE / "bots"
ATTACKLIB = HERE / "attacklib.py"

CLOCK = TimeControl(decision_s=60.0, bank_s=60.0, startup_s=60.0)
"""Generous: the attacks take their time on a loaded machine, and no test here is about time."""


# -- bot folders -----------------------------------------------------------------------------------


def attack_bot(root: Path, name: str, params: dict[str, Any] | None = None) -> Path:
    """A copy of bots/NAME (with attacklib.py and params.json) under root; its folder.

    Caches are left out (a ``__pycache__`` left in the checkout by an earlier run or
    ``compileall``): a snapshot skips them, and tests compare the copy with its snapshot."""
    target = root / "bots" / name
    shutil.copytree(BOTS / name, target, ignore=shutil.ignore_patterns(*SKIPPED_DIRS))
    shutil.copy(ATTACKLIB, target / "attacklib.py")
    if params is not None:
        (target / "params.json").write_text(json.dumps(params))
    return target


def good_bot(root: Path, name: str = "good") -> Path:
    """A well-behaved bot (tests/fakebots/fakebot.py good) under root."""
    target = root / "bots" / name
    target.mkdir(parents=True)
    shutil.copy(FAKEBOT, target / "fakebot.py")
    (target / "bot.toml").write_text(
        f'name = "{name}"\nversion = "0"\ncommand = ["{{python}}", "fakebot.py", "good"]\n'
    )
    return target


QUICK_ATTACKS = {"test_attack_privileges.py"}
"""Attacks left in the quick run (-m "not slow"), so it still plays one sandboxed match of
attack bots: this one's probes only look (about 1.5 s of CPU for the whole module)."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every other attack is slow (real sandboxed matches, probes that wait for limits to
    bite)."""
    for item in items:
        if item.path.is_relative_to(HERE) and item.path.name not in QUICK_ATTACKS:
            item.add_marker(pytest.mark.slow)


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Skip where the attacks cannot mean what they say: the bots make raw x86_64 system calls,
    and the checks are of the set-up arena uses as root (a user id of its own per bot
    process, cgroups made by arena). Anywhere else they would fail for the wrong reasons."""
    if platform.machine() != "x86_64":
        pytest.skip("the attack bots make raw x86_64 system calls")
    if os.geteuid() != 0:
        pytest.skip("the attacks check the sandbox arena builds as root")


@pytest.fixture(scope="module", autouse=True)
def arena_cache(tmp_path_factory: pytest.TempPathFactory):
    """A snapshot cache for the module's shared matches (module fixtures are set up before the
    function-scoped own_snapshot_cache of tests/conftest.py, which gives each test its own)."""
    cache = tmp_path_factory.mktemp("arena-cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ARENA_CACHE", str(cache))
        yield cache


# -- what the host sees --------------------------------------------------------------------------


def cgroup_mounts() -> dict[str, str]:
    """Controller -> mount point of its v1 hierarchy; "unified" -> the cgroup2 mount."""
    found: dict[str, str] = {}
    with open("/proc/self/mountinfo") as mountinfo:
        for line in mountinfo:
            before, _, after = line.partition(" - ")
            point, (fstype, _, options) = before.split()[4], after.split()[:3]
            if fstype == "cgroup2":
                found.setdefault("unified", point)
            elif fstype == "cgroup":
                for option in options.split(","):
                    found.setdefault(option, point)
    return found


def process_cgroups(pid: int) -> dict[str, str]:
    """Controller -> the host directory of the process's cgroup (pids, memory, cpu...)."""
    mounts = cgroup_mounts()
    dirs: dict[str, str] = {}
    try:
        with open(f"/proc/{pid}/cgroup") as cgroup:
            lines = cgroup.read().splitlines()
    except OSError:
        return dirs
    for line in lines:
        _, controllers, path = line.split(":", 2)
        for controller in controllers.split(",") if controllers else ["unified"]:
            if controller in mounts:
                dirs[controller] = os.path.join(mounts[controller], path.lstrip("/"))
    return dirs


def status(pid: int | str) -> dict[str, str]:
    """/proc/PID/status as a dict ({} when the process is gone)."""
    try:
        with open(f"/proc/{pid}/status") as handle:
            return dict(
                line.split(":\t", 1) for line in handle.read().splitlines() if ":\t" in line
            )
    except OSError:
        return {}


def uid_of(pid: int | str) -> int | None:
    fields = status(pid).get("Uid", "").split()
    return int(fields[0]) if fields else None


def parent_of(pid: int | str) -> int | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return int(stat.read().rsplit(b")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return None


def all_pids() -> list[int]:
    return [int(p) for p in os.listdir("/proc") if p.isdigit()]


def living(pid: int) -> bool:
    """Running or stopped, not a zombie waiting for its parent."""
    state = status(pid).get("State", "")
    return bool(state) and not state.startswith(("Z", "X"))


def cmdline(pid: int | str) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            return handle.read().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return "?"


def descendants(root: int) -> set[int]:
    parents = {pid: parent_of(pid) for pid in all_pids()}
    found, frontier = set(), {root}
    while frontier:
        frontier = {pid for pid, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def read_cgroup_file(directory: str, name: str) -> str | None:
    try:
        with open(os.path.join(directory, name)) as handle:
            return handle.read().strip()
    except OSError:
        return None


CGROUP_FILES = {
    "pids": ("pids.max", "pids.current"),
    "memory": ("memory.limit_in_bytes", "memory.max_usage_in_bytes", "memory.oom_control"),
    "cpu": ("cpu.cfs_quota_us", "cpu.cfs_period_us"),
    "unified": ("pids.max", "memory.max", "memory.peak", "memory.events", "cpu.max"),
}
"""Read from a bot's cgroup while it runs (v1 names; "unified": what a cgroup v2 host has)."""


@dataclass
class SeatHost:
    """One seat's bot as the host saw it while it ran (merged over every look)."""

    cgroup_dirs: set[str] = field(default_factory=set)
    controllers: set[str] = field(default_factory=set)
    """The controllers (or "unified") of which it had a cgroup of its own."""
    uids: set[int] = field(default_factory=set)
    """The bot user ids its processes ran as."""
    members: set[int] = field(default_factory=set)
    """Processes found in its cgroup."""
    most: int = 0
    """The most processes running as a bot user seen at one look (zombies not counted)."""
    capabilities: set[str] = field(default_factory=set)
    """The effective capability sets (hex) of its processes running as a bot user."""
    strays: list[str] = field(default_factory=list)
    """Its processes (below its launcher, or with its user id) that were outside its cgroup."""
    files: dict[str, str] = field(default_factory=dict)
    """Its cgroup's limit and accounting files, last read."""

    def look(self, pid: int | None) -> None:
        if pid is None:
            return
        # a bot's own cgroups are named bot-... (cgroups.py); on a v1 host the process's v2
        # line is the root, which is nobody's own
        dirs = {
            controller: directory
            for controller, directory in process_cgroups(pid).items()
            if os.path.basename(directory).startswith("bot-")
        }
        self.controllers |= set(dirs)
        members: set[int] = set()
        for controller in ("pids", "memory", "unified"):
            if controller in dirs:
                text = read_cgroup_file(dirs[controller], "cgroup.procs") or ""
                members |= {int(p) for p in text.split()}
        own = {p for p in members if (uid_of(p) or 0) >= FIRST_BOT_UID}
        uids = {uid_of(p) for p in own} - {None}
        self.capabilities |= {status(p).get("CapEff", "?") for p in own}
        self.most = max(self.most, sum(1 for p in own if living(p)))
        self.uids |= uids  # type: ignore[arg-type]
        self.members |= members
        self.cgroup_dirs |= set(
            dirs[c] for c in dirs if c in ("pids", "memory", "cpu", "cpuacct", "unified")
        )
        for controller, names in CGROUP_FILES.items():
            if controller in dirs:
                for name in names:
                    value = read_cgroup_file(dirs[controller], name)
                    if value is not None:
                        self.files[name] = value
        suspects = (descendants(pid) | {p for p in all_pids() if uid_of(p) in uids}) - members
        self.strays += [f"{p} {cmdline(p)}" for p in suspects if living(p)]


class Observations(dict[str, tuple[str, str]]):
    """A bot's ATTACK lines: label -> (outcome, detail); the last line of a label wins."""

    @classmethod
    def from_text(cls, text: str) -> Observations:
        found = cls()
        for line in text.splitlines():
            if line.startswith("ATTACK "):
                parts = line.split(" ", 3) + ["", ""]
                found[parts[1]] = (parts[2], parts[3])
        return found


@dataclass
class Match:
    """A played match: records, logs, and what the host saw during and after."""

    records: list[GameRecord]
    logs: list[str]
    """Per entry: everything its bot wrote to stderr (start-up and every game)."""
    host: list[SeatHost]
    """Per entry."""
    leftover_processes: list[str]
    leftover_cgroups: list[str]
    leftover_fds: set[tuple[str, str]]
    leftover_children: set[str]
    lineup: Lineup

    @property
    def record(self) -> GameRecord:
        return self.records[-1]

    def seen(self, entry: int) -> dict[str, tuple[str, str]]:
        """The entry's ATTACK lines: label -> (outcome, detail); the last line of a label wins."""
        return Observations.from_text(self.logs[entry])

    def info(self, entry: int, label: str) -> Any:
        outcome, detail = self.seen(entry)[label]
        assert outcome == "info", (label, outcome, detail)
        return json.loads(detail)


def play_match(
    bots: Sequence[Path],
    root: Path,
    *,
    games: int = 1,
    options: dict[str, Any] | None = None,
    game: Any = GAME,
    clock: TimeControl = CLOCK,
    limits: Limits = DEFAULT_LIMITS,
    between: Callable[[int, Lineup], None] | None = None,
    seed: int = 1,
) -> Match:
    """Play ``games`` games with entry i in seat i, looking at the bots from the host after
    they started and after each game, then close the Lineup and collect what was left."""
    fds_before, children_before = open_fds(), children()
    manifests = [load_bot(b) for b in bots]
    log_dir = root / "logs"
    host = [SeatHost() for _ in bots]
    records: list[GameRecord] = []
    with Lineup(manifests, time_control=clock, log_dir=log_dir, limits=limits) as lineup:
        for index in range(games):
            if between is not None and index > 0:
                between(index, lineup)
            game_id = f"g{index}"
            entrants = lineup.seated(list(range(len(bots))), game_id)
            for seat, process in enumerate(lineup.processes):
                host[seat].look(process.pid)
            records.append(
                play_game(
                    game,
                    entrants,
                    seed=seed + index,
                    options=options if options is not None else {"rounds": 2},
                    time_control=clock,
                    game_id=game_id,
                )
            )
            for seat, process in enumerate(lineup.processes):
                host[seat].look(process.pid)
    uids = set().union(*(h.uids for h in host))
    leftover = [
        f"{p} uid {uid_of(p)} {cmdline(p)}" for p in all_pids() if uid_of(p) in uids and living(p)
    ]
    cgroups_left = sorted(d for h in host for d in h.cgroup_dirs if os.path.exists(d))
    logs = []
    for entry, manifest in enumerate(manifests):
        text = _read(log_dir / "between-games" / f"{manifest.digest}.log")
        for index in range(games):
            text += _read(log_dir / f"g{index}" / f"seat{entry}.log")
        logs.append(text)
    return Match(
        records,
        logs,
        host,
        leftover,
        cgroups_left,
        open_fds() - fds_before,
        set(children()) - set(children_before),
        lineup,
    )


def _read(path: Path) -> str:
    try:
        return path.read_text(errors="replace")
    except FileNotFoundError:
        return ""


def assert_contained(
    match: Match, attackers: Sequence[int], fault: str | None = "ok", *, all_started: bool = True
) -> None:
    """The game(s) completed, every seat but the attackers' played clean (and the attackers'
    with ``fault``, unless None), and nothing of any bot outlived the Lineup.
    all_started: every bot got past its hello (so the host saw it run as a bot user)."""
    for record in match.records:
        assert record.status == "complete", record.termination
        assert record.sandboxed is True
        for seat in record.seats:
            if seat.seat not in attackers:
                assert seat.fault == "ok", (seat.seat, seat.fault, seat.fault_reason)
            elif fault is not None:
                assert seat.fault == fault, (seat.seat, seat.fault, seat.fault_reason)
    for seat, host in enumerate(match.host):
        assert host.strays == [], f"seat {seat}: processes outside its cgroup: {host.strays}"
    if all_started:
        for seat, host in enumerate(match.host):
            assert host.uids, f"seat {seat}: seen from the host, it runs as a bot user"
            assert {"pids", "memory"} <= host.controllers or "unified" in host.controllers, (
                f"seat {seat}: a cgroup of its own ({host.controllers})"
            )
    assert match.leftover_processes == [], "no process outlives the Lineup"
    assert match.leftover_cgroups == [], "every cgroup directory is removed"
    assert match.leftover_fds == set(), "no descriptor of the referee's left open"
    assert match.leftover_children == set(), "no child of the referee's left unreaped"


def blocked(match: Match, entry: int, label: str, *errnos: str) -> str:
    """Assert the attempt ``label`` failed (with one of ``errnos`` if given); its detail."""
    seen = match.seen(entry)
    assert label in seen, f"the bot never reported {label!r}; log:\n{match.logs[entry][-3000:]}"
    outcome, detail = seen[label]
    assert outcome == "blocked", f"{label}: {outcome} {detail}"
    if errnos:
        assert detail in errnos, f"{label}: failed with {detail}, expected one of {errnos}"
    return detail


# -- the referee's own resources (as in tests/arena/test_referee_faults.py) -------------------------


def open_fds() -> set[tuple[str, str]]:
    gc.collect()
    found = set()
    for fd in os.listdir("/proc/self/fd"):
        try:
            found.add((fd, os.readlink(f"/proc/self/fd/{fd}")))
        except OSError:
            continue
    return found


def children() -> list[str]:
    me = os.getpid()
    return [str(pid) for pid in all_pids() if parent_of(pid) == me]


def tree_state(folder: Path) -> dict[str, tuple[str, int, bytes]]:
    """Every entry under folder: relative path -> (kind, mode, content or link target)."""
    state: dict[str, tuple[str, int, bytes]] = {}
    for dirpath, dirnames, filenames in os.walk(folder):
        for name in dirnames + filenames:
            path = os.path.join(dirpath, name)
            info = os.lstat(path)
            relative = os.path.relpath(path, folder)
            if os.path.islink(path):
                state[relative] = ("link", info.st_mode, os.fsencode(os.readlink(path)))
            elif os.path.isdir(path):
                state[relative] = ("dir", info.st_mode, b"")
            else:
                state[relative] = ("file", info.st_mode, Path(path).read_bytes())
    return state
