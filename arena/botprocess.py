"""A bot process: the transport of one seat, kept alive across many games.

Everything here is enforced while waiting, never measured after the fact (STYLE.md): reads
and writes are non-blocking and every wait is bounded by a deadline, so a hung, silent or
flooding bot costs the referee at most its deadline. The bot runs in a process group of its
own, so stopping it stops whatever it started.
"""

from __future__ import annotations

import collections
import errno
import os
import select
import signal
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from arena.containment import launch as launching
from arena.containment.limits import DEFAULT_LIMITS, Limits, process_cpu_seconds
from arena.containment.program import bot_search_path, unrunnable
from arena.faults import BotCrashed, BotError, BotProtocolError, BotStartFailed, BotTimeout, Fault
from arena.manifest import BotManifest
from arena.wire import SeatWire
from protocol import codec, features, messages

STDERR_CAP_BYTES = 256 * 1024
"""At most this much of a bot's stderr is kept per log file; the rest is read and dropped."""
MAX_QUEUED_LINES = 16
"""Lines a bot may have sent ahead of being asked; past this it is flooding the referee."""
_READ_CHUNK = 65536
_STDERR_TAIL = 600


class BotProcess:
    """One running bot. ``start`` does the handshake; ``ask`` sends a request and waits."""

    def __init__(
        self,
        manifest: BotManifest,
        *,
        log_dir: Path | None = None,
        max_line_bytes: int = codec.MAX_LINE_BYTES,
        stderr_cap_bytes: int = STDERR_CAP_BYTES,
        arena_version: str = "0",
        limits: Limits = DEFAULT_LIMITS,
    ) -> None:
        self.manifest = manifest
        self.limits = limits
        self.log_dir = log_dir
        self.stderr_cap_bytes = stderr_cap_bytes
        self.arena_version = arena_version
        self.hello_name = ""
        self.hello_version = ""
        self.wire = SeatWire()
        """The wire features negotiated in the handshake, and what they remember per game."""
        self._max_line_bytes = max_line_bytes
        self._proc: subprocess.Popen[bytes] | None = None
        self._splitter = codec.LineSplitter(max_line_bytes)
        self._lines: collections.deque[bytes] = collections.deque()
        self._outbox = bytearray()
        self._poll = select.poll()
        self._stdout_closed = False
        self._stderr_tail = b""
        self._log_path: Path | None = None
        self._log_file: Any = None
        self._log_written = 0
        self._launch: launching.Launch | None = None
        self._stderr_closed = False
        self._startup_timeout_s = 0.0
        self._startup_deadline = 0.0

    # -- life cycle -------------------------------------------------------------------------

    @property
    def alive(self) -> bool:
        """True while the process runs and has not been stopped by the referee."""
        return self._proc is not None and self._proc.poll() is None and not self._stdout_closed

    @property
    def sandboxed(self) -> bool:
        """Whether this bot runs in the sandbox (recorded with its games)."""
        return self.limits.sandbox

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc else None

    def cpu_seconds(self) -> float | None:
        """CPU time the bot has used so far (None if unknown): its cgroup's count, which
        includes every process it ever ran, else its own process's."""
        if self._proc is None:
            return None
        group = self._launch.cgroup if self._launch is not None else None
        if group is not None:
            used = group.cpu_seconds()
            if used is not None:
                return used
        return process_cpu_seconds(self._proc.pid)

    def start(self, timeout_s: float) -> None:
        """Start the process and do the handshake within timeout_s; raises BotError."""
        self.launch(timeout_s)
        error = finish_starts([self])[0]
        if error is not None:
            raise error

    def launch(self, timeout_s: float) -> None:
        """Start the process and queue the hello, without waiting for the bot: finish_starts
        then waits for its reply, until timeout_s from now. Raises BotStartFailed.

        Starting is split so that a lineup launches all its bots before waiting on any: each
        takes tens of milliseconds to start, and they can do it side by side.
        """
        self._reset_buffers()
        self.set_log(self._default_log_path())
        problem = unrunnable(self.manifest.command, self.manifest.snapshot, bot_search_path())
        if problem is not None:
            raise BotStartFailed(problem)
        try:
            self._launch = launching.prepare(
                self.manifest.command, self.manifest.snapshot, self.limits
            )
        except launching.SandboxUnavailable as exc:
            raise BotStartFailed(str(exc)) from None
        except OSError as exc:
            raise BotStartFailed(f"cannot create the bot's cgroup: {exc.strerror or exc}") from None
        # No preexec_fn: the launcher (a fresh process) joins the cgroup and sets the limits,
        # so starting a bot is safe while other threads run here (rich's live display).
        try:
            self._proc = subprocess.Popen(
                self._launch.argv,
                cwd=self._launch.cwd,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,  # its own process group: a kill takes its children too
                bufsize=0,
                env=self._launch.env,
                pass_fds=self._launch.pass_fds,
            )
        except OSError as exc:
            self._launch.release()
            self._launch = None
            raise BotStartFailed(
                f"cannot start the bot's launcher: {exc.strerror or exc}"
            ) from None
        finally:
            if self._launch is not None:
                self._launch.started()
        for stream in (self._proc.stdin, self._proc.stdout, self._proc.stderr):
            assert stream is not None
            os.set_blocking(stream.fileno(), False)
        self._poll = select.poll()
        self._poll.register(self._stdout_fd, select.POLLIN)
        self._poll.register(self._stderr_fd, select.POLLIN)
        self.send(messages.hello(self.arena_version))
        self._startup_timeout_s = timeout_s
        self._startup_deadline = time.monotonic() + timeout_s
        try:
            # Written now, not when finish_starts first looks (after the lineup's other
            # launches): the bot's startup time runs from here, so it gets the hello from here.
            self._write_some()
        except BotError:
            pass  # finish_starts writes the rest, and finds and reports the same trouble

    def _hello_due(self, now: float) -> bool:
        """Write what the pipe takes of the hello; True once the reply is there, or the bot has
        closed its stdout, or its startup deadline has passed (_check_hello then says which)."""
        self._write_some()
        return bool(self._lines) or self._stdout_closed or now >= self._startup_deadline

    def _handshake_fds(self) -> list[tuple[int, int]]:
        """The (descriptor, poll events) to wait on while the hello reply is awaited."""
        fds = [(self._stdout_fd, select.POLLIN)]
        if not self._stderr_closed:
            fds.append((self._stderr_fd, select.POLLIN))
        if self._outbox:
            fds.append((self._stdin_fd, select.POLLOUT))
        return fds

    def _check_hello(self) -> None:
        """Take the hello reply (or raise the crash or timeout) and agree on the protocol."""
        timeout_s = self._startup_timeout_s
        line = self._next_line(self._startup_deadline, "the hello reply", timeout_s)
        reply = self._decode(line)
        try:
            protocol, name, version = messages.check_bot_hello(reply)
        except messages.SchemaError as exc:
            raise BotProtocolError(Fault.HANDSHAKE, f"bad hello: {exc}") from None
        if protocol != messages.PROTOCOL_VERSION:
            raise BotProtocolError(
                Fault.HANDSHAKE,
                f"the bot speaks protocol {protocol} but this referee speaks protocol "
                f'{messages.PROTOCOL_VERSION}; answer hello with "protocol": '
                f"{messages.PROTOCOL_VERSION}",
            )
        try:
            granted = features.requested(reply)
        except features.FeatureError as exc:
            raise BotProtocolError(Fault.HANDSHAKE, f"bad hello: {exc}") from None
        self.hello_name, self.hello_version = name, version
        self.wire = SeatWire(granted)

    def stop(self, grace_s: float = 0.0) -> int | None:
        """Stop the bot: say bye, give it grace_s to exit, then kill its process group.

        Returns the exit code (negative: killed by that signal), or None if never started.
        """
        proc = self._proc
        if proc is None:
            return None
        if grace_s > 0 and proc.poll() is None:
            try:
                self.send(messages.bye())
                self._flush(time.monotonic() + grace_s)
                proc.stdin.close()  # type: ignore[union-attr]
            except (BotError, OSError):
                pass
            try:
                proc.wait(timeout=grace_s)
            except subprocess.TimeoutExpired:
                pass
        self._drain_stderr()
        self.kill()  # its process group, and its cgroup: what left the group (setsid) too
        if self._launch is not None:
            self._launch.release()  # the cgroup's directory, descriptors, scratch folder
            self._launch = None
        try:
            code = proc.wait(timeout=5)
        except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL did not take
            code = None
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        self._close_log()
        self._proc = None
        self._stdout_closed = True
        return code

    def kill(self) -> None:
        """SIGKILL the bot's process group and cgroup now; only system calls, no waiting on
        the bot, so it is safe from a signal handler. ``stop`` tidies up afterwards."""
        proc = self._proc
        if proc is not None:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        if self._launch is not None and self._launch.cgroup is not None:
            self._launch.cgroup.kill_all()

    # -- logging ----------------------------------------------------------------------------

    def set_log(self, path: Path | None) -> None:
        """Send the bot's stderr to path from now on (created only if the bot writes)."""
        self._drain_stderr()
        self._close_log()
        self._log_path = path

    def _default_log_path(self) -> Path | None:
        if self.log_dir is None:
            return None  # named by the bot's digest, never by its (bot-chosen) name
        return self.log_dir / "between-games" / f"{self.manifest.digest}.log"

    def _close_log(self) -> None:
        if self._log_file is not None:
            self._log_file.close()
        self._log_file = None
        self._log_written = 0

    def _log(self, data: bytes) -> None:
        self._stderr_tail = (self._stderr_tail + data)[-_STDERR_TAIL:]
        if self._log_path is None or self._log_written > self.stderr_cap_bytes:
            return
        if self._log_file is None:
            self._log_path.parent.mkdir(parents=True, exist_ok=True)
            self._log_file = open(self._log_path, "ab")
        room = self.stderr_cap_bytes - self._log_written
        self._log_file.write(data[:room])
        self._log_written += min(len(data), room)
        if len(data) > room:
            self._log_file.write(b"\n[arena: log capped here; further stderr was discarded]\n")
            self._log_written += 1
        self._log_file.flush()

    def _drain_stderr(self) -> None:
        if self._proc is None or self._proc.stderr is None or self._proc.stderr.closed:
            return
        while True:
            try:
                data = os.read(self._stderr_fd, _READ_CHUNK)
            except BlockingIOError:
                return
            except OSError:
                return
            if not data:
                return
            self._log(data)

    # -- messages ---------------------------------------------------------------------------

    def send(self, message: dict[str, Any]) -> None:
        """Queue a message, in this bot's wire form; it is written at the next ask (or flush)
        without blocking."""
        self._outbox += self.wire.line(message)

    def flush(self, timeout_s: float) -> None:
        """Write everything queued, waiting at most timeout_s for the bot to read."""
        self._outbox += self.wire.flush()  # events held for a batch (wire feature event-batch)
        self._flush(time.monotonic() + timeout_s)

    def ask(self, request: dict[str, Any], timeout_s: float) -> tuple[Any, float]:
        """Send a request and wait for its answer; returns (action, seconds taken).

        Raises BotTimeout, BotCrashed or BotProtocolError; the action is *not* checked
        against the legal actions here (that is the referee's job).
        """
        request_id = request["id"]
        self.send(request)
        started = time.monotonic()
        deadline = started + timeout_s
        line = self._next_line(deadline, f"the answer to request {request_id}", timeout_s)
        elapsed = time.monotonic() - started
        reply = self._decode(line)
        if reply.get("type") == "hello":
            raise BotProtocolError(Fault.UNEXPECTED, "sent a hello in the middle of a game")
        try:
            answered_id, action = messages.check_bot_action(reply)
        except messages.SchemaError as exc:
            raise BotProtocolError(Fault.SCHEMA, str(exc)) from None
        if answered_id != request_id:
            raise BotProtocolError(
                Fault.UNEXPECTED,
                f"answered request id {answered_id} while request {request_id} was pending "
                f"(a stale or duplicate answer, or a message nobody asked for)",
            )
        return action, elapsed

    def _decode(self, line: bytes) -> dict[str, Any]:
        try:
            return codec.decode(line)
        except codec.DecodeError as exc:
            raise BotProtocolError(Fault.MALFORMED, str(exc)) from None

    # -- the wait loop ----------------------------------------------------------------------

    @property
    def _stdout_fd(self) -> int:
        return self._proc.stdout.fileno()  # type: ignore[union-attr]

    @property
    def _stderr_fd(self) -> int:
        return self._proc.stderr.fileno()  # type: ignore[union-attr]

    @property
    def _stdin_fd(self) -> int:
        return self._proc.stdin.fileno()  # type: ignore[union-attr]

    def _reset_buffers(self) -> None:
        self._splitter = codec.LineSplitter(self._max_line_bytes)
        self._lines.clear()
        self._outbox.clear()
        self._stdout_closed = False
        self._stderr_closed = False
        self._stderr_tail = b""
        self.wire = SeatWire()  # a new process negotiates afresh

    def _write_some(self) -> bool:
        """Write what the pipe takes now; True when the outbox is empty."""
        while self._outbox:
            try:
                written = os.write(self._stdin_fd, self._outbox)
            except BlockingIOError:
                return False
            except (BrokenPipeError, ConnectionResetError):
                raise self._crashed("closed its stdin (stopped reading) ") from None
            except OSError as exc:
                if exc.errno == errno.EPIPE:
                    raise self._crashed("closed its stdin (stopped reading) ") from None
                raise
            del self._outbox[:written]
        return True

    def _flush(self, deadline: float) -> None:
        if self._proc is None:
            return
        while not self._write_some():
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise BotTimeout("did not read its input in time (its stdin pipe stayed full)")
            self._poll.register(self._stdin_fd, select.POLLOUT)
            try:
                self._poll_once(remaining)
            finally:
                self._poll.unregister(self._stdin_fd)

    def _next_line(self, deadline: float, waiting_for: str, timeout_s: float) -> bytes:
        if self._lines:
            return self._lines.popleft()
        if self._proc is None:
            raise BotCrashed("is not running")
        writing = not self._write_some()
        if writing:
            self._poll.register(self._stdin_fd, select.POLLOUT)
        try:
            while not self._lines:
                if self._stdout_closed:
                    raise self._crashed(f"ended before sending {waiting_for}: ")
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise BotTimeout(
                        f"sent no {waiting_for} within {timeout_s * 1000:.0f} ms"
                        + (" (it had not yet read all of its input)" if self._outbox else "")
                    )
                self._poll_once(remaining)
                if writing and self._write_some():
                    self._poll.unregister(self._stdin_fd)
                    writing = False
        finally:
            if writing:
                self._poll.unregister(self._stdin_fd)
        return self._lines.popleft()

    def _poll_once(self, remaining_s: float) -> None:
        for fd, _ in self._poll.poll(_poll_ms(remaining_s)):
            self._on_ready(fd)

    def _on_ready(self, fd: int) -> None:
        """Read what a poll found on fd (stdin's room is used by the next write)."""
        if fd == self._stdout_fd:
            self._read_stdout()
        elif fd == self._stderr_fd:
            self._read_stderr()

    def _read_stdout(self) -> None:
        try:
            data = os.read(self._stdout_fd, _READ_CHUNK)
        except BlockingIOError:
            return
        if not data:
            self._stdout_closed = True
            self._poll.unregister(self._stdout_fd)
            return
        try:
            self._lines.extend(self._splitter.feed(data))
        except codec.DecodeError as exc:
            raise BotProtocolError(Fault.MALFORMED, str(exc)) from None
        if len(self._lines) > MAX_QUEUED_LINES:
            # Lines nobody asked for would otherwise pile up in the referee's memory for as
            # long as it waits on this bot (e.g. while the bot does not read its own stdin).
            raise BotProtocolError(
                Fault.UNEXPECTED,
                f"sent more than {MAX_QUEUED_LINES} lines without being asked (one answer per "
                "request)",
            )

    def _read_stderr(self) -> None:
        try:
            data = os.read(self._stderr_fd, _READ_CHUNK)
        except BlockingIOError:
            return
        if not data:
            self._stderr_closed = True
            self._poll.unregister(self._stderr_fd)
            return
        self._log(data)

    def _crashed(self, prefix: str) -> BotCrashed:
        """A crash error naming the exit code or signal, and quoting the end of stderr."""
        assert self._proc is not None
        try:
            code = self._proc.wait(timeout=0.2)
        except subprocess.TimeoutExpired:
            code = None
        self._drain_stderr()
        if code is None:
            how = "closed its stdout but is still running"
        elif code < 0:
            try:
                how = f"was killed by signal {signal.Signals(-code).name}"
            except ValueError:
                how = f"was killed by signal {-code}"
        elif code > 128 and self._launch is not None and self._launch.sandboxed:
            # bubblewrap reports a bot killed by signal N as exit code 128 + N
            try:
                how = f"was killed by signal {signal.Signals(code - 128).name}"
            except ValueError:
                how = f"exited with code {code}"
        else:
            how = f"exited with code {code}"
        group = self._launch.cgroup if self._launch is not None else None
        if group is not None and group.oom_kills():
            how += (
                f" (the kernel killed it for passing its memory cap of {self.limits.memory_mib}"
                " MiB, all its processes and its /tmp together)"
            )
        tail = self._stderr_tail.decode("utf-8", "replace").strip().splitlines()[-3:]
        said = f"; last stderr: {' | '.join(tail)}" if tail else ""
        return BotCrashed(f"{prefix}{how}{said}")


def finish_starts(processes: Sequence[BotProcess]) -> list[BotError | None]:
    """Finish the handshakes of launched processes: each one's error, or None once it has
    answered the hello well, within its own startup deadline.

    All are waited on at once, not one after another: a bot must neither lose its startup time
    nor block on a full pipe while the referee waits on another that is slow to answer. A
    process that failed is left for its owner to stop.
    """
    errors: list[BotError | None] = [None] * len(processes)
    waiting = list(range(len(processes)))
    while True:
        poll = select.poll()
        owners: dict[int, int] = {}
        still: list[int] = []
        now = time.monotonic()
        for index in waiting:
            process = processes[index]
            try:
                if process._hello_due(now):
                    process._check_hello()
                    continue
            except BotError as error:
                errors[index] = error
                continue
            for fd, events in process._handshake_fds():
                poll.register(fd, events)
                owners[fd] = index
            still.append(index)
        waiting = still
        if not waiting:
            return errors
        soonest = min(processes[index]._startup_deadline for index in waiting)
        for fd, _ in poll.poll(_poll_ms(soonest - time.monotonic())):
            index = owners[fd]
            if errors[index] is None:
                try:
                    processes[index]._on_ready(fd)
                except BotError as error:
                    errors[index] = error
                    waiting.remove(index)


def _poll_ms(remaining_s: float) -> int:
    """A poll timeout in whole milliseconds, rounded up and at least 1 (0 would spin)."""
    return max(1, int(remaining_s * 1000 + 0.999))
