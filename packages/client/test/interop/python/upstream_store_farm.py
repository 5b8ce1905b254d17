"""Serves fresh upstream (agentlightning 0.3.0) LightningStoreServers on demand, from one Python process.

Importing agentlightning takes ~15 s, so the conformance suite cannot start a Python process per case.
This script pays that once and then, through a tiny control API on 127.0.0.1, starts a fresh
`InMemoryLightningStore` + `LightningStoreServer` (upstream's own FastAPI app, thread launch mode) per request:

    POST /stores?scan_debounce_seconds=0   -> {"url": "http://127.0.0.1:<port>"}
    POST /stores/<port>/stop                -> {"stopped": <port>}
    GET  /health                            -> {"status": "ok"}

Usage: python upstream_store_farm.py   (prints "READY <control-port>" once listening)
"""

from __future__ import annotations

import asyncio
import json
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Dict
from urllib.parse import parse_qs, urlparse

import agentlightning as agl

LOOP = asyncio.new_event_loop()
SERVERS: Dict[int, Any] = {}


def run_loop() -> None:
    asyncio.set_event_loop(LOOP)
    LOOP.run_forever()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


async def start_store(scan_debounce_seconds: float) -> str:
    store = agl.InMemoryLightningStore(thread_safe=True, scan_debounce_seconds=scan_debounce_seconds)
    port = free_port()
    server = agl.LightningStoreServer(store, host="127.0.0.1", port=port, launch_mode="thread")
    await server.start()
    SERVERS[port] = server
    return f"http://127.0.0.1:{port}"


async def stop_store(port: int) -> None:
    server = SERVERS.pop(port, None)
    if server is not None:
        await server.stop()


class Control(BaseHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - quiet
        return

    def answer(self, status: int, body: Dict[str, Any]) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:  # noqa: N802
        self.answer(200, {"status": "ok", "servers": sorted(SERVERS)})

    def do_POST(self) -> None:  # noqa: N802
        url = urlparse(self.path)
        parts = [p for p in url.path.split("/") if p]
        try:
            if parts == ["stores"]:
                debounce = float(parse_qs(url.query).get("scan_debounce_seconds", ["0"])[0])
                future = asyncio.run_coroutine_threadsafe(start_store(debounce), LOOP)
                self.answer(201, {"url": future.result(timeout=60)})
            elif len(parts) == 3 and parts[0] == "stores" and parts[2] == "stop":
                asyncio.run_coroutine_threadsafe(stop_store(int(parts[1])), LOOP).result(timeout=60)
                self.answer(200, {"stopped": int(parts[1])})
            else:
                self.answer(404, {"detail": f"no route {url.path}"})
        except Exception as exc:  # report, keep serving
            self.answer(500, {"detail": f"{type(exc).__name__}: {exc}"})


def main() -> None:
    threading.Thread(target=run_loop, daemon=True).start()
    control = ThreadingHTTPServer(("127.0.0.1", 0), Control)
    print(f"READY {control.server_address[1]}", flush=True)
    try:
        control.serve_forever()
    finally:
        for port in list(SERVERS):
            asyncio.run_coroutine_threadsafe(stop_store(port), LOOP).result(timeout=30)


if __name__ == "__main__":
    main()
