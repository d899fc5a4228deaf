"""A misbehaving bot for tests, run as a real subprocess: `fakebot.py MODE [N]`.

Modes (N = the request number, 1-based, at which the misbehaviour starts; default 1):
  good        answers every request with the first legal option
  sleep       hangs at request N
  late        answers request N after 1.5 s (past a short deadline)
  crash       exits with code 3 at request N
  crash-start exits with code 4 before the hello
  silent      never answers the hello
  garbage     answers request N with a line that is not JSON
  badutf8     answers request N with invalid UTF-8
  notobject   answers request N with a JSON array
  schema      answers request N with {"type": "action"} (no id, no action)
  illegal     answers request N with an action not in the legal list
  wrong-id    answers request N with a wrong request id
  twice       answers request N twice
  version     says protocol 99 in its hello
  bigline     at request N writes 10 MiB without a newline
  stderr      writes 1 MiB to stderr at every request, then answers
  close       closes stdout at request N but keeps running
  child       at request N spawns a sleeping child that keeps the pipes, then exits
  burn        spends 0.3 s of CPU at request N, then answers
  idle        waits 0.3 s (no CPU) at request N, then answers
  hog         at request N allocates 8 GiB (past the memory limit), then answers
  bigfile     at request N writes a 200 MiB file into its scratch space, then answers
  env         writes its environment variable names to stderr at start
  forkbomb    at request N forks children (each leaving the process group with setsid) until
              forking fails, logs how many, then answers
  snoop       at start, tries to connect to 127.0.0.1:PORT and to read each PATH given after
              N (fakebot.py snoop 1 PORT PATH...), and logs what it reached to stderr
  chatty      sends an unsolicited message when a game starts, before being asked anything
  flood       when a game starts, sends 10,000 short lines nobody asked for
  bytes       answers request N with the raw bytes of the file named by FAKEBOT_BYTES
              (given as its third argument), whatever they are
  features    says hello with "features": the JSON value in features.json in its directory,
              then plays like good (whatever the referee sends it)
  hostile-crash  at request N writes terminal escapes, markup and a forged line to stderr
              (which the crash reason quotes), then exits with code 3
"""

import json
import os
import subprocess
import sys
import time

mode = sys.argv[1]
at = int(sys.argv[2]) if len(sys.argv) > 2 else 1


def send(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def first_legal(legal):
    kind = legal["kind"]
    if kind == "choice":
        return legal["options"][0]
    if kind == "range":
        return legal["min"]
    if kind == "text":
        return ""
    return {k: first_legal(v) for k, v in legal["fields"].items()}


if mode == "crash-start":
    sys.exit(4)
if mode == "snoop":
    import socket

    try:
        socket.create_connection(("127.0.0.1", int(sys.argv[3])), timeout=2).close()
        sys.stderr.write("SNOOP network reached\n")
    except OSError as exc:
        sys.stderr.write(f"SNOOP network blocked ({exc})\n")
    for path in sys.argv[4:]:
        seen = os.path.exists(path)
        sys.stderr.write(f"SNOOP {path} {'visible' if seen else 'hidden'}\n")
    sys.stderr.flush()
if mode == "env":
    sys.stderr.write("ENV " + " ".join(sorted(os.environ)) + "\n")
    sys.stderr.flush()
requests = 0
for line in sys.stdin:
    msg = json.loads(line)
    kind = msg.get("type")
    if kind == "hello":
        if mode == "silent":
            time.sleep(3600)
        hello = {
            "type": "hello",
            "protocol": 99 if mode == "version" else 1,
            "name": "fake-" + mode,
            "version": "0",
        }
        if mode == "features":
            with open("features.json", encoding="utf-8") as asked:
                hello["features"] = json.load(asked)
        send(hello)
        continue
    if kind == "bye":
        break
    if kind == "game_start" and mode == "chatty":
        send({"type": "log", "text": "hello everyone"})
    if kind == "game_start" and mode == "flood":
        sys.stdout.write('{"type": "log"}\n' * 10_000)
        sys.stdout.flush()
    if kind != "request":
        continue
    requests += 1
    legal = msg["legal"]
    if mode == "features" and "products" in legal:  # wire feature choice-products
        product = legal["products"][0]
        legal = {"kind": "choice", "options": [{k: v[0] for k, v in product.items()}]}
    answer = {"type": "action", "id": msg["id"], "action": first_legal(legal)}
    if mode == "stderr":
        sys.stderr.write("x" * (1 << 20) + "\n")
        sys.stderr.flush()
    if requests >= at:
        if mode == "sleep":
            time.sleep(3600)
        elif mode == "late":
            time.sleep(1.5)
        elif mode == "crash":
            sys.stderr.write("fakebot: crashing on purpose\n")
            sys.exit(3)
        elif mode == "hostile-crash":
            sys.stderr.buffer.write(
                b"[/]boom [red]\x1b[2J\x1b]0;pwned\x07 \xe2\x80\xae\xff :skull:\r\nFORGED-LINE\n"
            )
            sys.stderr.flush()
            sys.exit(3)
        elif mode == "garbage":
            sys.stdout.write("this is not json\n")
            sys.stdout.flush()
            continue
        elif mode == "badutf8":
            sys.stdout.buffer.write(b'{"type": "action", "id": \xff\xfe}\n')
            sys.stdout.flush()
            continue
        elif mode == "notobject":
            send([1, 2, 3])
            continue
        elif mode == "schema":
            send({"type": "action"})
            continue
        elif mode == "illegal":
            answer["action"] = {"no such": "action"}
        elif mode == "wrong-id":
            answer["id"] = msg["id"] + 1000
        elif mode == "twice":
            send(answer)
        elif mode == "bigline":
            sys.stdout.write("x" * (10 << 20))
            sys.stdout.flush()
            time.sleep(3600)
        elif mode == "close":
            os.close(1)
            time.sleep(3600)
        elif mode == "bytes":
            with open(sys.argv[3], "rb") as raw:
                sys.stdout.buffer.write(raw.read())
            sys.stdout.flush()
            time.sleep(3600)
        elif mode == "forkbomb":
            children = 0
            while children < 10000:
                try:
                    pid = os.fork()
                except OSError:
                    break
                if pid == 0:
                    os.setsid()
                    time.sleep(3600)
                    os._exit(0)
                children += 1
            sys.stderr.write(f"forked {children}\n")
            sys.stderr.flush()
        elif mode == "burn":
            end = time.process_time() + 0.3
            while time.process_time() < end:
                pass
        elif mode == "idle":
            time.sleep(0.3)
        elif mode == "hog":
            hoard = bytearray(8 << 30)
        elif mode == "bigfile":
            # its folder is read-only: try there (and stay silent), then its scratch space
            try:
                open("big.bin", "wb").close()
            except OSError:
                pass
            with open(os.path.join(os.environ.get("TMPDIR", "."), "big.bin"), "wb") as big:
                for _ in range(200):
                    big.write(b"x" * (1 << 20))
        elif mode == "child":
            subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"])
            sys.exit(0)
    send(answer)
