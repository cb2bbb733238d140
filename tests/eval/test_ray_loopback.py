"""A Ray cluster umb starts itself listens on loopback only, and its dashboard is opt-in.

Ray's APIs have no authentication (CVE-2023-48022): an open Ray port is a way in to the machine.
"""

from __future__ import annotations

import ipaddress
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from umb import ConfigError
from umb.run import ExecutorOptions
from umb.testing import OpenAIServer

pytest.importorskip("ray", reason="the ray extra is not installed")
psutil = pytest.importorskip("psutil", reason="psutil (extra dev) lists the sockets")

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="reads Linux sockets")


def _loopback(ip: str) -> bool:
    address = ipaddress.ip_address(ip.partition("%")[0])
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped  # '::ffff:127.0.0.1': IPv4 loopback on a dual socket
    return address.is_loopback


def _bound_sockets(root: int) -> list[tuple[str, str, int]]:
    """(process name, address, port) of every socket that waits for peers, in ``root``'s tree:
    TCP sockets listening, UDP sockets bound."""
    found = []
    top = psutil.Process(root)
    for proc in [top, *top.children(recursive=True)]:
        try:
            name = proc.name()
            for conn in proc.net_connections(kind="inet"):
                waits = conn.status == psutil.CONN_LISTEN or (
                    conn.type == 2 and conn.laddr and not conn.raddr  # SOCK_DGRAM, unconnected
                )
                if waits:
                    found.append((name, conn.laddr.ip, conn.laddr.port))
        except (psutil.NoSuchProcess, psutil.ZombieProcess):
            continue  # a worker that ended while the tree was read has no socket left
    return found


def _wait_for_held_request(server: OpenAIServer, proc: subprocess.Popen[bytes]) -> None:
    # The event: the run's first model request reached the server, which holds it; until it is
    # answered the cluster is up, with a worker in the middle of a unit.
    deadline = time.monotonic() + 120
    while server.stats()["in_flight"] < 1:
        assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
        assert time.monotonic() < deadline, "the run never sent a request"
        time.sleep(0.05)


def test_a_local_cluster_listens_on_loopback_only(
    demo_bench: Path, tmp_path: Path, openai_server: OpenAIServer
) -> None:
    openai_server.set_rules({"times": 1, "latency": 600})  # the first request is held
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}
    env["OPENAI_API_KEY"] = "sk-loopback-test"
    command = [
        sys.executable, "-m", "umb", "eval", "--bench", str(demo_bench),
        "--system", "no_context", "--model", "openai/umb-test",
        "--base-url", openai_server.base_url, "--timeout", "900", "--out", str(tmp_path / "run"),
        "--limit", "5", "--no-progress", "--executor", "ray", "--workers", "2",
    ]  # fmt: skip
    proc = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    tree: list[int] = []
    try:
        _wait_for_held_request(openai_server, proc)
        tree = [p.pid for p in psutil.Process(proc.pid).children(recursive=True)]
        sockets = _bound_sockets(proc.pid)
    finally:
        proc.send_signal(signal.SIGINT)  # as Ctrl-C: umb shuts its cluster down
        try:
            proc.wait(timeout=60)
        finally:
            for pid in tree:  # the cluster's processes, started by this test's command
                try:
                    psutil.Process(pid).kill()
                except psutil.NoSuchProcess:
                    pass
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            assert proc.stderr is not None
            proc.stderr.close()
    names = {name for name, _, _ in sockets}
    assert "gcs_server" in names and "raylet" in names, sockets  # the cluster was read
    exposed = [s for s in sockets if not _loopback(s[1])]
    assert exposed == [], f"Ray sockets beyond loopback: {exposed}"
    assert proc.returncode == 130


def test_the_dashboard_is_only_for_a_local_cluster() -> None:
    assert ExecutorOptions(kind="ray").dashboard is False
    with pytest.raises(ConfigError, match="--ray-dashboard is for the local cluster"):
        ExecutorOptions(kind="ray", address="10.0.0.7:6379", dashboard=True)
    with pytest.raises(ConfigError, match="--ray-dashboard is for the local cluster"):
        ExecutorOptions(kind="local", dashboard=True)


def test_the_dashboard_without_its_packages_is_a_one_line_error(tmp_path: Path) -> None:
    import importlib.util

    from umb.run._ray_cluster import start_local_cluster

    if importlib.util.find_spec("aiohttp") is not None:
        pytest.skip("Ray's dashboard packages are installed")
    with pytest.raises(ConfigError, match=r"pip install 'ray\[default\]'"):
        start_local_cluster(1, str(tmp_path), dashboard=True)
