"""A uvicorn server on a free loopback port, in a daemon thread (what `kopa serve` runs, minus the CLI):
the same configuration as `kopa serve` (serving.server_config: keep-alive longer than any client pool,
the same backlog), so tests meet the server users run."""

from __future__ import annotations

import socket
import threading
import time

import uvicorn

from kopa_inspect.serving import server_config


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ServerThread:
    """uvicorn in a daemon thread, stopped by flag (what `kopa serve` runs, minus the CLI)."""

    def __init__(self, app) -> None:  # noqa: ANN001
        self.port = free_port()
        self.server = uvicorn.Server(server_config(app, "127.0.0.1", self.port))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> str:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.02)
        return f"http://127.0.0.1:{self.port}"

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
