"""Join a Ray cluster for the length of one call, or start a small local one (extra ``ray``).

Ray's APIs have no authentication, so an open Ray port lets anyone who reaches it run code
(CVE-2023-48022, "ShadowRay"). A cluster umb starts therefore listens on 127.0.0.1 only, with
the dashboard off unless asked for; a real cluster is joined only when named (``--ray-address``
or ``$RAY_ADDRESS``), and securing it is its owner's business (docs/scale.md).
"""

from __future__ import annotations

import importlib.util
import ipaddress
import logging
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from types import ModuleType
from typing import Any

from umb._errors import ConfigError, MissingDependencyError, UmbError
from umb.run._options import ExecutorOptions

LOOPBACK = "127.0.0.1"
"""The only address a local cluster started by umb listens on."""

# Ray 2.60 turns a loopback node address into the machine's network address (so that other
# nodes could reach it) unless clusters are switched off for the platform; its servers then
# bind every interface. Switched off, the node's address stays loopback and each server binds
# it. The switch is read by the driver (this module constant) and by the processes it starts
# (the environment variable), so both are set while the node starts.
_CLUSTER_SWITCH = "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"

COMMON: dict[str, Any] = {
    "log_to_driver": False,
    "logging_level": logging.ERROR,
    "configure_logging": True,
}
"""``ray.init`` arguments of every connection: workers' log lines stay off umb's terminal (a
worker's failure reaches the driver as the task's error)."""


def import_ray() -> ModuleType:
    """The ``ray`` module.

    Raises:
        MissingDependencyError: ray is not installed (naming the extra ``ray``).
    """
    try:
        import ray
    except ImportError as e:
        raise MissingDependencyError("ray", "ray") from e
    return ray


@contextmanager
def _node_on_loopback(ray: ModuleType) -> Iterator[None]:
    constants = ray._private.ray_constants
    saved_flag, saved_env = constants.ENABLE_RAY_CLUSTER, os.environ.get(_CLUSTER_SWITCH)
    constants.ENABLE_RAY_CLUSTER = False
    os.environ[_CLUSTER_SWITCH] = "0"
    try:
        yield
    finally:
        constants.ENABLE_RAY_CLUSTER = saved_flag
        if saved_env is None:
            os.environ.pop(_CLUSTER_SWITCH, None)
        else:
            os.environ[_CLUSTER_SWITCH] = saved_env


def start_local_cluster(workers: int, temp_dir: str, *, dashboard: bool = False) -> str:
    """Start a one-node Ray cluster on 127.0.0.1 joined by this process; its address.

    Args:
        workers: CPUs the cluster offers (units at once).
        temp_dir: Ray's session folder (keep it short: Ray puts unix sockets in it).
        dashboard: Also start Ray's dashboard, on 127.0.0.1 (needs ``ray[default]``).

    Raises:
        ConfigError: ``dashboard`` without the dashboard's packages.
        UmbError: Ray put the node on another address than loopback (it is shut down).
    """
    ray = import_ray()
    if dashboard and importlib.util.find_spec("aiohttp") is None:
        raise ConfigError(
            "--ray-dashboard needs the packages of Ray's dashboard: pip install 'ray[default]'"
        )
    with _node_on_loopback(ray):
        context = ray.init(
            address="local",  # a new cluster even when $RAY_ADDRESS names one
            num_cpus=workers,
            _node_ip_address=LOOPBACK,
            include_dashboard=dashboard,
            dashboard_host=LOOPBACK,
            _temp_dir=temp_dir,
            **COMMON,
        )
    node = str(context.address_info["node_ip_address"])
    if not ipaddress.ip_address(node).is_loopback:
        ray.shutdown()
        raise UmbError(f"Ray started its node on {node}, not on loopback; refusing to run on it")
    return str(context.address_info["address"])


def _is_loopback(address: str) -> bool:
    """Whether a cluster's ``host:port`` is on loopback (a ``ray://`` client address is not
    handled: its driver runs in the cluster)."""
    host = address.rpartition(":")[0].strip("[]")
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@contextmanager
def ray_cluster(options: ExecutorOptions) -> Iterator[None]:
    """Connect to ``options.address``, or start a local cluster of ``options.workers`` CPUs.

    A cluster this process already joined (a test's, a notebook's) is used as it is and left
    running. Otherwise the connection (and a local cluster with its temporary folder) ends with
    the block.
    """
    ray = import_ray()
    if ray.is_initialized():
        yield
        return
    temp_dir = None
    if options.address:
        # A driver finds its node's raylet by the node's address: joining a cluster on
        # loopback (one umb started on this machine), it must take the loopback address too.
        on_loopback = _is_loopback(options.address)
        local = {"_node_ip_address": LOOPBACK} if on_loopback else {}
        try:
            with _node_on_loopback(ray) if on_loopback else nullcontext():
                ray.init(address=options.address, include_dashboard=False, **local, **COMMON)
        except ConnectionError as e:
            raise ConfigError(
                f"cannot join the Ray cluster at {options.address} ({e}); check --ray-address "
                "or $RAY_ADDRESS, and that the cluster is up"
            ) from None
    else:
        # Short, private and removed afterwards: Ray puts unix sockets in it (a path limit).
        temp_dir = tempfile.mkdtemp(prefix="umb-ray-")
        try:
            start_local_cluster(options.workers, temp_dir, dashboard=options.dashboard)
        except BaseException:
            shutil.rmtree(temp_dir, ignore_errors=True)
            raise
    try:
        yield
    finally:
        ray.shutdown()
        if temp_dir is not None:
            shutil.rmtree(temp_dir, ignore_errors=True)
