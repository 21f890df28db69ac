"""A live server for tests and benchmarks: the app under waitress in a thread on a free
localhost port. Shared by tests/web, tests/board, tests/vision and tests/benchmarks, imported
as tests.helpers.livekit (tests/ is a package)."""
from __future__ import annotations

import threading


class LiveServer:
    def __init__(self, app, threads: int = 48, **limits):
        self.app = app
        self.server = self._make_server(app, threads, **limits)
        self.port = self.server.effective_port
        self.url = f"http://127.0.0.1:{self.port}"
        self.stopping = False
        self.thread = threading.Thread(target=self._loop, daemon=True)
        self.thread.start()

    def _make_server(self, app, threads: int):
        from waitress.server import create_server
        return create_server(app, host="127.0.0.1", port=0, threads=threads)

    def _loop(self):
        while not self.stopping:
            self.server.asyncore.loop(timeout=0.05, map=self.server._map, count=1)

    def close(self):
        self.app.extensions["pegs"].close()  # streams end, the board and the bots stop
        self.stopping = True
        self.thread.join(timeout=5)
        self.server.task_dispatcher.shutdown(timeout=5)
        for channel in list(self.server._map.values()):
            channel.close()
