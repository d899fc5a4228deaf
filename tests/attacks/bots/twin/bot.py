"""Attack: two copies of this bot in one match (the same folder, twice) collude. The copy in
seat 0 leaves things behind when its game starts: a file in /tmp, a listening abstract unix
socket and a loopback TCP listener, a System V shared-memory segment and message queue under a
known key, a FIFO. The copy in seat 1, asked after seat 0 answered (so after all that was
done), looks for each of them; and for the other's process."""

import ctypes
import os
import socket

from attacklib import attempt, errname, info, libc, params, play, report

IPC_CREAT = 0o1000
KEEP = []  # the listeners stay open while the game goes on


def plant(token: str, key: int, port: int) -> None:
    attempt("plant_file", lambda: open(f"/tmp/{token}", "w").write(token))
    unix = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    attempt("plant_abstract", lambda: unix.bind("\0" + token) or unix.listen())
    tcp = socket.socket()
    attempt("plant_tcp", lambda: tcp.bind(("127.0.0.1", port)) or tcp.listen())
    KEEP.extend([unix, tcp])
    shm = libc.shmget(key, 4096, IPC_CREAT | 0o666)
    report("plant_shm", "SUCCEEDED" if shm >= 0 else "blocked", shm)
    queue = libc.msgget(key, IPC_CREAT | 0o666)
    report("plant_msg", "SUCCEEDED" if queue >= 0 else "blocked", queue)
    PLANTED.update(shm=shm, queue=queue)
    attempt("plant_fifo", lambda: os.mkfifo(f"/tmp/{token}.fifo"))
    info("planter_pid", os.getpid())


def look(token: str, key: int, port: int) -> None:
    attempt("read_file", lambda: open(f"/tmp/{token}").read())
    attempt("connect_abstract", lambda: socket.socket(socket.AF_UNIX).connect("\0" + token))
    attempt("connect_tcp", lambda: socket.create_connection(("127.0.0.1", port), timeout=5).close())
    for label, call in (
        ("shm", lambda: libc.shmget(key, 0, 0)),
        ("msg", lambda: libc.msgget(key, 0)),
    ):
        ctypes.set_errno(0)
        found = call()
        report(
            f"find_{label}", "SUCCEEDED" if found >= 0 else "blocked", errname(ctypes.get_errno())
        )
    attempt(
        "open_fifo", lambda: os.close(os.open(f"/tmp/{token}.fifo", os.O_RDONLY | os.O_NONBLOCK))
    )
    info("pids_seen", {"pids": sorted(int(p) for p in os.listdir("/proc") if p.isdigit()),
                       "me": os.getpid()})  # fmt: skip


SEAT = {}
PLANTED = {}
IPC_RMID = 0


def on_game_over(message):
    """The first copy clears up what it left (in the sandbox it all goes with the sandbox
    anyway; outside one it would stay in the host's /tmp and IPC namespace)."""
    if SEAT.get("seat") != 0:
        return
    token = params()["token"]
    for path in (f"/tmp/{token}", f"/tmp/{token}.fifo"):
        if os.path.lexists(path):
            os.unlink(path)
    if PLANTED.get("shm", -1) >= 0:
        libc.shmctl(PLANTED["shm"], IPC_RMID, None)
    if PLANTED.get("queue", -1) >= 0:
        libc.msgctl(PLANTED["queue"], IPC_RMID, None)


def on_game_start(message):
    SEAT["seat"] = message["seat"]
    given = params()
    if message["seat"] == 0:
        plant(given["token"], given["key"], given["port"])


def on_request(number, request):
    given = params()
    if number == 1 and SEAT["seat"] == 1:
        look(given["token"], given["key"], given["port"])
    return None


libc.shmget.argtypes = [ctypes.c_int, ctypes.c_size_t, ctypes.c_int]
libc.msgget.argtypes = [ctypes.c_int, ctypes.c_int]
play(name="twin", on_request=on_request, on_game_start=on_game_start, on_game_over=on_game_over)
