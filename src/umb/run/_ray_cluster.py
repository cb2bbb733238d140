"""Join a Ray cluster for the length of one call, or start a small local one (extra ``ray``)."""

from __future__ import annotations

import logging
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType

from umb._errors import ConfigError, MissingDependencyError
from umb.run._options import ExecutorOptions


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
def ray_cluster(options: ExecutorOptions) -> Iterator[None]:
    """Connect to ``options.address``, or start a local cluster of ``options.workers`` CPUs.

    A cluster this process already joined (a test's, a notebook's) is used as it is and left
    running. Otherwise the connection (and a local cluster with its temporary folder) ends with
    the block. Workers' log lines are not copied to this terminal: umb's own output stays clean,
    and a worker's failure reaches the driver as the task's error.
    """
    ray = import_ray()
    if ray.is_initialized():
        yield
        return
    common = {
        "log_to_driver": False,
        "logging_level": logging.ERROR,
        "include_dashboard": False,
        "configure_logging": True,
    }
    temp_dir = None
    if options.address:
        try:
            ray.init(address=options.address, **common)
        except ConnectionError as e:
            raise ConfigError(
                f"cannot join the Ray cluster at {options.address} ({e}); check --ray-address "
                "or $RAY_ADDRESS, and that the cluster is up"
            ) from None
    else:
        # Short, private and removed afterwards: Ray puts unix sockets in it (a path limit).
        temp_dir = tempfile.mkdtemp(prefix="umb-ray-")
        ray.init(num_cpus=options.workers, _temp_dir=temp_dir, **common)
    try:
        yield
    finally:
        ray.shutdown()
        if temp_dir is not None:
            shutil.rmtree(temp_dir, ignore_errors=True)

