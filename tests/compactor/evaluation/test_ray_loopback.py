"""The local Ray instance of ``--backend ray`` listens on loopback only: a real local Ray is
started by the evaluation, and every socket its processes listen on (the GCS, the raylet, the
agents, the driver, the workers) is on 127.0.0.1 or ::1."""

import ipaddress
import os
import socket
from pathlib import Path

import pytest

from compactor.evaluation import CorpusItem, RunOptions, evaluate, grid_points
from tests.processes import descendants

ray = pytest.importorskip("ray")


def _address(hex_address: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address:
    """An address as /proc/net prints it: 32-bit words in host byte order."""
    raw = bytes.fromhex(hex_address)
    words = b"".join(raw[k : k + 4][::-1] for k in range(0, len(raw), 4))
    family = socket.AF_INET if len(raw) == 4 else socket.AF_INET6
    return ipaddress.ip_address(socket.inet_ntop(family, words))


def listening(pids):
    """``(address, port, pid)`` of every TCP socket listening, and every UDP socket bound, in
    the processes ``pids``."""
    owners = {}
    for pid in pids:
        try:
            for fd in os.listdir(f"/proc/{pid}/fd"):
                try:
                    target = os.readlink(f"/proc/{pid}/fd/{fd}")
                except OSError:
                    continue
                if target.startswith("socket:["):
                    owners[target[8:-1]] = pid
        except OSError:
            continue
    found = []
    for table, state in (("tcp", "0A"), ("tcp6", "0A"), ("udp", "07"), ("udp6", "07")):
        for line in Path(f"/proc/net/{table}").read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == state and fields[9] in owners:
                host, port = fields[1].split(":")
                found.append((_address(host), int(port, 16), owners[fields[9]]))
    return found


def loopback(address) -> bool:
    mapped = getattr(address, "ipv4_mapped", None)
    return address.is_loopback or (mapped is not None and mapped.is_loopback)


@pytest.mark.slow
def test_the_local_ray_instance_listens_on_loopback_only():
    assert not ray.is_initialized()
    item = CorpusItem(
        0,
        {
            "messages": [
                {"role": "user", "content": "Order DE-4471, please."},
                {"role": "assistant", "content": "DE-4471 noted."},
            ],
            "budget_chars": 100,
        },
    )
    rows = evaluate([item] * 2, grid_points(), [100], RunOptions(backend="ray", workers=1))
    first = next(rows)  # Ray is up, with a worker that ran a task
    try:
        assert ray.is_initialized() and first["conversation"] == 0
        pids = [os.getpid(), *descendants(os.getpid())]
        sockets = listening(pids)
        names = {pid: Path(f"/proc/{pid}/comm").read_text().strip() for _, _, pid in sockets}
        assert {"gcs_server", "raylet"} <= set(names.values()), names  # Ray's own servers
        exposed = [(str(a), port, names[pid]) for a, port, pid in sockets if not loopback(a)]
        assert exposed == []
    finally:
        rows.close()  # shuts the instance down
    assert not ray.is_initialized()
