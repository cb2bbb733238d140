"""Run by ``test_mem0_lib`` in a fresh interpreter: the umb command line with every network
connection and name look-up outside the loopback refused and written down.

Usage: ``python mem0_child.py REFUSED_JSON umb-arguments...``. A fresh interpreter is the
point: mem0 decides where its home folder is when it is first imported.
"""

from __future__ import annotations

import json
import socket
import sys
from typing import Any

LOOPBACK = {"127.0.0.1", "localhost", "::1"}
refused: list[str] = []
_connect = socket.socket.connect
_connect_ex = socket.socket.connect_ex
_getaddrinfo = socket.getaddrinfo


def _allowed(sock: socket.socket, address: Any) -> bool:
    if sock.family not in (socket.AF_INET, socket.AF_INET6):
        return True
    host = str(address[0])
    if host in LOOPBACK:
        return True
    refused.append(f"connect {address}")
    return False


def _guarded_connect(self: socket.socket, address: Any) -> None:
    if not _allowed(self, address):
        raise OSError(f"network access outside the loopback: {address}")
    _connect(self, address)


def _guarded_connect_ex(self: socket.socket, address: Any) -> int:
    if not _allowed(self, address):
        return 111  # ECONNREFUSED
    return _connect_ex(self, address)


def _guarded_getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
    if host is not None and str(host) not in LOOPBACK:
        refused.append(f"getaddrinfo {host}")
        raise socket.gaierror(f"name look-up outside the loopback: {host}")
    return _getaddrinfo(host, *args, **kwargs)


socket.socket.connect = _guarded_connect  # type: ignore[method-assign]
socket.socket.connect_ex = _guarded_connect_ex  # type: ignore[method-assign]
socket.getaddrinfo = _guarded_getaddrinfo


def run(arguments: list[str]) -> int:
    from umb._cli.main import main

    sys.argv = ["umb", *arguments]
    try:
        main()
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else 1
    return 0


if __name__ == "__main__":
    report, arguments = sys.argv[1], sys.argv[2:]
    code = 1
    try:
        code = run(arguments)
    finally:
        with open(report, "w", encoding="utf-8") as out:
            json.dump(refused, out)
    sys.exit(code)
