"""A sqlite response cache, so a rerun of identical requests costs nothing and works offline.

The key covers what determines an answer — provider, model, base URL, messages and generation
parameters — and nothing secret: API keys never reach the key or the file. Only successful
results are stored; an error is retried on the next run.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from pathlib import Path

from umb._errors import ConfigError
from umb.models._api import GenerateRequest, GenerateResult

_SCHEMA = """
CREATE TABLE IF NOT EXISTS responses (
    key TEXT PRIMARY KEY,
    provider TEXT NOT NULL,
    model TEXT NOT NULL,
    text TEXT NOT NULL,
    input_tokens INTEGER NOT NULL,
    output_tokens INTEGER NOT NULL,
    created_at REAL NOT NULL
)
"""

# Bump when the key layout changes, so old entries are simply never hit again.
_KEY_VERSION = 1


def cache_key(provider: str, model: str, base_url: str, request: GenerateRequest) -> str:
    """The sha256 hex key of one request.

    Args:
        provider: Backend family, e.g. ``openai`` or ``hf``.
        model: Model name or path within the provider.
        base_url: Endpoint URL ("" for local backends).
        request: The request; ``task`` is ignored, as remote backends never see it.

    Returns:
        64 hex characters.
    """
    payload = {
        "v": _KEY_VERSION,
        "provider": provider,
        "model": model,
        "base_url": base_url,
        "messages": [[m.role, m.content] for m in request.messages],
        "max_tokens": request.max_tokens,
        "temperature": request.temperature,
        "json_mode": request.json_mode,
    }
    if request.json_schema is not None:  # absent otherwise, so older keys still hit
        payload["json_schema"] = request.json_schema
    blob = json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


class ResponseCache:
    """Successful responses on disk, one sqlite file (WAL mode) shared by threads and processes.

    Args:
        path: The sqlite file; its folder is created if missing.

    Raises:
        ConfigError: The file cannot be opened as a sqlite database.
    """

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # One connection guarded by a lock: calls are sub-millisecond, and several event-loop
            # threads (or worker threads) may share one model.
            self._conn = sqlite3.connect(self.path, check_same_thread=False, timeout=30.0)
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA synchronous=NORMAL")
            self._conn.execute(_SCHEMA)
            self._conn.commit()
        except (sqlite3.Error, OSError) as e:
            raise ConfigError(f"cannot open response cache {self.path}: {e}") from e
        self._lock = threading.Lock()

    def get(self, key: str) -> GenerateResult | None:
        """The cached result for ``key`` (``cached=True``, zero latency), or None."""
        with self._lock:
            row = self._conn.execute(
                "SELECT text, input_tokens, output_tokens FROM responses WHERE key = ?", (key,)
            ).fetchone()
        if row is None:
            return None
        return GenerateResult(
            text=row[0], input_tokens=row[1], output_tokens=row[2], latency_s=0.0, cached=True
        )

    def put(self, key: str, provider: str, model: str, result: GenerateResult) -> None:
        """Store a successful result; results with ``error`` set are ignored."""
        if result.error is not None:
            return
        with self._lock:
            self._conn.execute(
                "INSERT OR REPLACE INTO responses VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    key,
                    provider,
                    model,
                    result.text,
                    result.input_tokens,
                    result.output_tokens,
                    time.time(),
                ),
            )
            self._conn.commit()

    def __len__(self) -> int:
        with self._lock:
            (count,) = self._conn.execute("SELECT COUNT(*) FROM responses").fetchone()
        return int(count)

    def close(self) -> None:
        """Close the connection (later calls fail)."""
        with self._lock:
            self._conn.close()
