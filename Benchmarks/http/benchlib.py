"""What the set-up steps of the HTTP benchmark share: TOTP codes and a small concurrent HTTP client.

The client is asyncio over raw keep-alive connections rather than http.client in threads: set-up
makes tens of thousands of requests on the same two cores the servers run on, and a thread per
connection under the GIL costs more CPU than the servers' work.
"""

import asyncio
import base64
import hashlib
import hmac
import json
import struct
import time


def totp(secret_base32: str, step: int) -> str:
    """The 6-digit SHA-1 code of `step` (RFC 6238, Firebase's and privacyIDEA's defaults)."""
    padded = secret_base32.upper() + "=" * (-len(secret_base32) % 8)
    key = base64.b32decode(padded)
    digest = hmac.new(key, struct.pack(">Q", step), hashlib.sha1).digest()
    offset = digest[-1] & 0x0F
    value = struct.unpack(">I", digest[offset : offset + 4])[0] & 0x7FFFFFFF
    return f"{value % 1_000_000:06d}"


def wrong_code(right: str, salt: int) -> str:
    """A code that is not `right`; a miss must still be checked against the whole window, so it
    may be any other six digits."""
    code = f"{(int(right) + 1 + salt % 999_998) % 1_000_000:06d}"
    return code if code != right else f"{(int(right) + 1) % 1_000_000:06d}"


def current_step() -> int:
    return int(time.time()) // 30


class Response:
    __slots__ = ("status", "body")

    def __init__(self, status: int, body: bytes):
        self.status = status
        self.body = body

    def json(self):
        return json.loads(self.body)


class Connection:
    def __init__(self, host: str, port: int):
        self.host, self.port = host, port
        self.reader = self.writer = None

    async def request(self, method: str, path: str, body: bytes = b"", headers: dict | None = None) -> Response:
        for attempt in range(2):
            if self.writer is None:
                self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
            head = f"{method} {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\nContent-Length: {len(body)}\r\n"
            for name, value in (headers or {}).items():
                head += f"{name}: {value}\r\n"
            try:
                self.writer.write(head.encode() + b"\r\n" + body)
                return await self._read()
            except (ConnectionError, asyncio.IncompleteReadError):
                # A server may close an idle keep-alive connection; one new connection is enough.
                self.close()
                if attempt == 1:
                    raise
        raise AssertionError("unreachable")

    async def _read(self) -> Response:
        head = await self.reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        length, chunked, closes = 0, False, False
        for line in lines[1:]:
            name, _, value = line.partition(":")
            name, value = name.strip().lower(), value.strip()
            if name == "content-length":
                length = int(value)
            elif name == "transfer-encoding" and "chunked" in value.lower():
                chunked = True
            elif name == "connection" and value.lower() == "close":
                closes = True
        if chunked:
            body = b""
            while True:
                size = int((await self.reader.readuntil(b"\r\n")).strip(), 16)
                chunk = await self.reader.readexactly(size + 2)
                if size == 0:
                    break
                body += chunk[:-2]
        else:
            body = await self.reader.readexactly(length)
        if closes:
            self.close()
        return Response(status, body)

    def close(self):
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


async def run_all(host: str, port: int, items, work, connections: int = 32, label: str = ""):
    """Calls `work(connection, item)` for every item over `connections` keep-alive connections;
    the results in the items' order. Progress goes to standard error, since set-up of tens of
    thousands of users takes minutes and a silent minute looks like a hang."""
    items = list(items)
    results = [None] * len(items)
    queue = asyncio.Queue()
    for index, item in enumerate(items):
        queue.put_nowait((index, item))
    done = 0
    started = time.monotonic()

    async def worker():
        nonlocal done
        connection = Connection(host, port)
        try:
            while True:
                try:
                    index, item = queue.get_nowait()
                except asyncio.QueueEmpty:
                    return
                results[index] = await work(connection, item)
                done += 1
                if label and done % 5000 == 0:
                    rate = done / (time.monotonic() - started)
                    print(f"  {label}: {done}/{len(items)} ({rate:.0f}/s)", file=__import__("sys").stderr, flush=True)
        finally:
            connection.close()

    await asyncio.gather(*(worker() for _ in range(min(connections, max(1, len(items))))))
    return results
