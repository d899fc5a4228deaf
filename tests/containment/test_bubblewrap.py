"""The sandbox a referee that is not root builds: bubblewrap in a user namespace. (As root,
arena drops each bot to a user of its own; tests/attacks/ runs that path for real.)"""

from __future__ import annotations

import os
import subprocess
import tempfile
from pathlib import Path

import pytest

from arena.containment import bubblewrap, seccomp

INSIDE = (
    "id -u; grep -E '^(CapEff|CapBnd|NoNewPrivs|Seccomp):' /proc/self/status; cat /bot/x; "
    "unshare -U true 2>/dev/null; echo unshare=$?; touch /bot/y 2>/dev/null; echo bot=$?; "
    "touch /tmp/z; echo tmp=$?; ls /home /root 2>&1 | head -1"
)


@pytest.fixture
def open_folder():
    """A folder another user may enter (pytest's own temporary folders are private)."""
    with tempfile.TemporaryDirectory() as folder:
        os.chmod(folder, 0o755)
        yield Path(folder)


def test_an_unprivileged_referee_gets_the_same_sandbox(open_folder, monkeypatch):
    tmp_path = open_folder
    if os.geteuid() != 0:
        pytest.skip("this test switches to another user to play a non-root referee")
    monkeypatch.setattr(bubblewrap, "python_dirs", list)  # nobody may not enter root's Python
    folder = tmp_path / "bot"
    folder.mkdir()
    (folder / "x").write_text("snapshot")
    for path in (tmp_path, folder, folder / "x"):
        path.chmod(0o755)
    arch = seccomp.machine()
    read_end, write_end = os.pipe()
    os.write(write_end, seccomp.build_filter(arch) if arch else b"")
    os.close(write_end)
    command = bubblewrap.sandbox_command(
        ["/bin/sh", "-c", INSIDE],
        folder,
        scratch_bytes=1 << 20,
        seccomp_fd=read_end if arch else None,
        uid=None,
    )
    as_nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"]
    try:
        done = subprocess.run(
            as_nobody + command, pass_fds=(read_end,), capture_output=True, text=True, timeout=60
        )
    finally:
        os.close(read_end)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.split("\n")
    assert lines[0] == "65534", "the referee's own user, not root"
    assert "CapEff:\t0000000000000000" in lines and "CapBnd:\t0000000000000000" in lines
    assert "NoNewPrivs:\t1" in lines
    assert ("Seccomp:\t2" in lines) == bool(arch)
    assert "snapshot" in done.stdout and "unshare=1" in done.stdout, "no nested namespaces"
    assert "bot=1" in done.stdout and "tmp=0" in done.stdout, "read-only /bot, writable /tmp"
    assert "No such file or directory" in lines[-2], "nothing of the host's homes"


def test_python_under_tmp_is_mounted_after_the_scratch_space(monkeypatch):
    """A checkout cloned under /tmp has its .venv there: the scratch tmpfs on /tmp must not
    hide it (found by a clean-clone run), and /tmp must stay writable (no --dir /tmp after)."""
    venv = "/tmp/clone/.venv"
    monkeypatch.setattr(bubblewrap, "python_dirs", lambda: [venv])
    args = bubblewrap.sandbox_command(["x"], Path("/s"), scratch_bytes=1, seccomp_fd=None, uid=7)
    scratch = args.index("--tmpfs")
    assert args[scratch + 1] == "/tmp"
    assert args.index(venv) > scratch, "the venv is bound onto the scratch tmpfs, not under it"
    made = [args[i + 1] for i, arg in enumerate(args) if arg == "--dir"]
    assert made == ["/tmp/clone"], "its parent is made inside the tmpfs; /tmp itself is left"
