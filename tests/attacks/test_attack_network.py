"""Network and IPC: a bot reaches no one, not the host, not the internet, not a copy of itself."""

from __future__ import annotations

import contextlib
import secrets
import socket

import pytest

from tests.attacks.conftest import assert_contained, attack_bot, blocked, good_bot, play_match


def host_addresses() -> list[str]:
    """The host's own non-loopback IPv4 addresses (where it has any)."""
    found: set[str] = set()
    with contextlib.suppress(OSError):
        found |= {i[4][0] for i in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)}
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("192.0.2.1", 9))  # no packet is sent: this only picks the route
        found.add(probe.getsockname()[0])
    return sorted(a for a in found if not a.startswith("127."))


@pytest.fixture(scope="module")
def network(tmp_path_factory, arena_cache):
    """The network bot against listeners the test holds open: TCP and UDP on every address,
    an abstract unix socket; returns the match and what reached each listener."""
    root = tmp_path_factory.mktemp("network")
    tcp = socket.socket()
    tcp.bind(("0.0.0.0", 0))
    tcp.listen()
    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    udp.bind(("0.0.0.0", 0))
    name = f"arena-attack-{secrets.token_hex(6)}"
    unix = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    unix.bind("\0" + name)
    unix.listen()
    params = {
        "tcp_port": tcp.getsockname()[1],
        "udp_port": udp.getsockname()[1],
        "host_addresses": host_addresses(),
        "abstract": name,
    }
    try:
        match = play_match([attack_bot(root, "network", params), good_bot(root)], root)
        reached = {}
        for label, sock, take in (
            ("tcp", tcp, lambda s: s.accept()),
            ("udp", udp, lambda s: s.recvfrom(100)),
            ("unix", unix, lambda s: s.accept()),
        ):
            sock.setblocking(False)
            try:
                reached[label] = repr(take(sock))
            except BlockingIOError:
                reached[label] = None
        yield match, reached, params
    finally:
        for sock in (tcp, udp, unix):
            sock.close()


def test_network_attacker_was_contained(network):
    assert_contained(network[0], attackers=[0], fault="ok")


def test_the_controls_are_real(network):
    """The listeners the bot went for do answer on the host."""
    _, _, params = network
    with socket.create_connection(("127.0.0.1", params["tcp_port"]), timeout=5):
        pass
    with socket.socket(socket.AF_UNIX) as client:
        client.connect("\0" + params["abstract"])


def test_nothing_reached_the_hosts_listeners(network):
    _, reached, _ = network
    assert reached == {"tcp": None, "udp": None, "unix": None}


def test_loopback_is_its_own(network):
    match, _, _ = network
    blocked(match, 0, "tcp_loopback", "ECONNREFUSED")
    blocked(match, 0, "tcp_loopback6", "ECONNREFUSED", "EADDRNOTAVAIL", "ENETUNREACH")
    assert match.seen(0)["udp_loopback"][0] == "SUCCEEDED", "sent into its own empty loopback"


def test_the_hosts_addresses_are_unreachable(network):
    match, _, params = network
    for n, _ in enumerate(params["host_addresses"]):
        blocked(match, 0, f"tcp_host_{n}", "ENETUNREACH")
        blocked(match, 0, f"udp_host_{n}", "ENETUNREACH")


def test_the_hosts_abstract_unix_sockets_are_unreachable(network):
    blocked(network[0], 0, "abstract_unix", "ECONNREFUSED")


def test_no_internet_no_names(network):
    match, _, _ = network
    assert blocked(match, 0, "dns").startswith("gaierror")
    blocked(match, 0, "dns_server", "ENETUNREACH")
    blocked(match, 0, "tcp_internet", "ENETUNREACH")


@pytest.mark.parametrize("label", ["raw_socket", "packet_socket"])
def test_no_raw_or_packet_sockets(network, label):
    blocked(network[0], 0, label, "EPERM")


def test_no_ping_socket(network):
    blocked(network[0], 0, "ping_socket", "EACCES", "EPERM")


def test_no_host_unix_sockets(network):
    match, _, _ = network
    for label in [label for label in match.seen(0) if label.startswith("unix:")]:
        blocked(match, 0, label, "ENOENT")


def test_its_only_interface_is_loopback(network):
    assert network[0].info(0, "interfaces") == ["lo"]


# -- two copies of one bot -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def twins(tmp_path_factory, arena_cache):
    root = tmp_path_factory.mktemp("twins")
    params = {
        "token": f"arena-twin-{secrets.token_hex(6)}",
        "key": secrets.randbelow(1 << 30) + 1,
        "port": 20000 + secrets.randbelow(20000),
    }
    twin = attack_bot(root, "twin", params)
    return play_match([twin, twin, good_bot(root)], root)


def test_twins_were_contained(twins):
    assert_contained(twins, attackers=[0, 1], fault="ok")
    assert twins.lineup.manifests[0].snapshot == twins.lineup.manifests[1].snapshot


@pytest.mark.parametrize("what", ["file", "abstract", "tcp", "shm", "msg", "fifo"])
def test_the_first_copy_did_leave_things_behind(twins, what):
    assert twins.seen(0)[f"plant_{what}"][0] == "SUCCEEDED", twins.seen(0)


@pytest.mark.parametrize(
    "label, errnos",
    [
        ("read_file", ("ENOENT",)),
        ("connect_abstract", ("ECONNREFUSED",)),
        ("connect_tcp", ("ECONNREFUSED",)),
        ("find_shm", ("ENOENT",)),
        ("find_msg", ("ENOENT",)),
        ("open_fifo", ("ENOENT",)),
    ],
)
def test_the_second_copy_finds_none_of_it(twins, label, errnos):
    blocked(twins, 1, label, *errnos)


def test_the_copies_cannot_see_each_other(twins):
    seen = twins.info(1, "pids_seen")
    assert seen["pids"] == [1, seen["me"]], "its sandbox's pid 1 and itself, nothing else"
