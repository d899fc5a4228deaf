"""Attack: reach anything over the network: the test's TCP and UDP listeners (on 127.0.0.1
and on the host's own addresses), the host's abstract unix sockets (the X11 escape), a name
server, raw and packet sockets (sniffing, spoofing), and the interfaces it has."""

import socket

from attacklib import attempt, info, params, play

TIMEOUT = 5.0


def tcp(host: str, port: int) -> str:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.settimeout(TIMEOUT)
        sock.connect((host, port))
        sock.sendall(b"ARENA-NETWORK-ATTACK\n")
    return f"connected to {host}:{port}"


def udp(host: str, port: int) -> str:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        sock.sendto(b"ARENA-NETWORK-ATTACK", (host, port))
    return f"sent to {host}:{port}"


def abstract(name: str) -> str:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.connect("\0" + name)
        sock.sendall(b"ARENA-NETWORK-ATTACK\n")
    return f"connected to @{name}"


def attack() -> None:
    given = params()
    tcp_port, udp_port = given["tcp_port"], given["udp_port"]
    attempt("tcp_loopback", lambda: tcp("127.0.0.1", tcp_port))
    attempt("tcp_loopback6", lambda: tcp("::1", tcp_port))
    for n, address in enumerate(given["host_addresses"]):
        attempt(f"tcp_host_{n}", lambda address=address: tcp(address, tcp_port))
        attempt(f"udp_host_{n}", lambda address=address: udp(address, udp_port))
    # sendto on its own loopback succeeds (the datagram is dropped there): the test checks
    # that nothing arrived on the host
    attempt("udp_loopback", lambda: udp("127.0.0.1", udp_port))
    attempt("abstract_unix", lambda: abstract(given["abstract"]))
    attempt("dns", lambda: socket.getaddrinfo("example.com", 80))
    # addresses outside the machine (documentation ranges: no one answers, should it get out)
    attempt("dns_server", lambda: udp("192.0.2.53", 53))
    attempt("tcp_internet", lambda: tcp("198.51.100.80", 80))
    attempt(
        "raw_socket",
        lambda: socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP).close(),
    )
    attempt(
        "packet_socket", lambda: socket.socket(socket.AF_PACKET, socket.SOCK_RAW, 0x0300).close()
    )
    attempt(
        "ping_socket",
        lambda: socket.socket(socket.AF_INET, socket.SOCK_DGRAM, socket.IPPROTO_ICMP).close(),
    )
    for path in ("/run/dbus/system_bus_socket", "/var/run/docker.sock", "/run/systemd/private"):
        attempt(f"unix:{path}", lambda path=path: socket.socket(socket.AF_UNIX).connect(path))
    info("interfaces", [name for _, name in socket.if_nameindex()])


def on_request(number, request):
    if number == 1:
        attack()
    return None


play(name="network", on_request=on_request)
