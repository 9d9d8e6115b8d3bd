"""The server the browser tests talk to: a phone that drops its connection leaves nothing open."""

from __future__ import annotations

import gc
import socket
import struct
import threading
import time
from urllib.parse import urlsplit

from .helpers import serving


def _handlers() -> set[threading.Thread]:
    """The threads of every test server answering a request now."""
    return {t for t in threading.enumerate() if "process_request_thread" in t.name}


def test_a_file_whose_connection_is_reset_while_the_server_drains_the_request_is_closed(tmp_path):
    """Werkzeug's server leaves a response open when the connection resets while it drains
    what the browser sent after its request (serving.py, run_wsgi's finally); the file of a
    static answer then warns 'unclosed file' and fails whichever browser test is running."""
    with serving(tmp_path) as url:
        address = urlsplit(url)
        before = _handlers()  # the session's server may hold event streams open
        phone = socket.create_connection((address.hostname, address.port))
        phone.sendall(b"GET /static/icon-192.png HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n" + b"x" * 100)
        assert phone.recv(12) == b"HTTP/1.1 200"
        phone.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        phone.close()  # a reset, while the server waits for the rest of the body
        deadline = time.monotonic() + 5
        while _handlers() - before and time.monotonic() < deadline:
            time.sleep(0.01)
        assert not _handlers() - before, "the server still answers the phone that left"
        gc.collect()  # an unclosed file warns now, and the warning fails this test
