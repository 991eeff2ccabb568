#!/usr/bin/env python3
"""The streams the end-to-end tests play: a small HTTP(S) server on 127.0.0.1 (loopback only).

    python3 Tests/stream-server.py ROOT [--cert CERT --key KEY]

Prints the port it listens on (a free one) as its first line, then serves until killed or
until its standard input closes (so it never outlives the test that started it). Routes:

  /files/NAME          ROOT/NAME with Content-Length and a Content-Type from the extension
  /live/NAME?bps=N     ROOT/NAME looped without a length, paced to N bytes per second (a 0.5 s
                       burst first, as radio servers send); with the request header
                       Icy-MetaData: 1 it answers icy-metaint: 8000 and sends
                       StreamTitle='Song K' (K = 1, 2, …, one more every `every` seconds, 1.5 by default);
                       bps=0: not paced at all (as fast as the client reads; a new title in every
                       metadata block), for voicememo-bench stream; titlelength=L pads each
                       title to L characters ("Song K la la la …"); bps=100 is a trickle
  /drop/NAME?bps=N&after=S  as /live, but the first connection to it is cut after S seconds
  /cut/NAME?bytes=N    ROOT/NAME's full Content-Length, but only its first N bytes, then the connection closes
  /unsized/NAME?bps=N  ROOT/NAME once, without Content-Length and without ICY headers (HTTP/1.0: the
                       connection's close is its end), as fast as the client reads, or paced to N
                       bytes per second (a 0.5 s burst first); bytes=N: only its first N bytes
  /stall               reads the request and never answers
  /status/CODE         answers with that status (404 Not Found, 500 Internal Server Error, …)
  /loop                302 to itself, for ever
  /redirect/NAME       302 to /files/NAME
  /redirect-to?location=URL  302 to URL (file:///etc/passwd, ftp://…)
  /html                a text/html page
  /endless-headers     a 200 status, then icy-* header lines for up to 20 s, never an empty line
  /garbage?type=T&bytes=N  N bytes (200000 by default) of seeded random bytes as Content-Type T
"""
import http.server
import os
import socketserver
import ssl
import sys
import threading
import time
import urllib.parse

ROOT = sys.argv[1]
TYPES = {".mp3": "audio/mpeg", ".flac": "audio/flac", ".wav": "audio/wav", ".ogg": "audio/ogg",
         ".opus": "audio/ogg", ".aac": "audio/aac", ".m4a": "audio/mp4"}
METAINT = 8000
drops_lock = threading.Lock()
dropped_once = set()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"

    def log_message(self, *args):
        pass

    def do_GET(self):
        parsed = urllib.parse.urlparse(self.path)
        query = dict(urllib.parse.parse_qsl(parsed.query))
        parts = parsed.path.strip("/").split("/", 1)
        route, rest = parts[0], (parts[1] if len(parts) > 1 else "")
        try:
            if route == "files":
                self.send_file(rest)
            elif route in ("live", "drop"):
                after = None
                if route == "drop":
                    with drops_lock:
                        if parsed.path not in dropped_once:
                            dropped_once.add(parsed.path)
                            after = float(query.get("after", "3"))
                self.send_live(rest, int(query.get("bps", "16000")), float(query.get("every", "1.5")), after,
                               int(query.get("titlelength", "0")))
            elif route == "unsized":
                self.send_unsized(rest, int(query.get("bps", "0")), int(query.get("bytes", "0")))
            elif route == "cut":
                self.send_file(rest, cut=int(query.get("bytes", "10000")))
            elif route == "stall":
                time.sleep(120)
            elif route == "status":
                code = int(rest)
                self.send_response(code)
                self.send_header("Content-Type", "text/plain")
                self.send_header("Content-Length", "5")
                self.end_headers()
                self.wfile.write(b"error")
            elif route == "loop":
                self.send_response(302)
                self.send_header("Location", "/loop")
                self.send_header("Content-Length", "0")
                self.end_headers()
            elif route == "redirect":
                self.send_response(302)
                self.send_header("Location", "/files/" + rest)
                self.send_header("Content-Length", "0")
                self.end_headers()
            elif route == "redirect-to":
                self.send_response(302)
                self.send_header("Location", query.get("location", "/"))
                self.send_header("Content-Length", "0")
                self.end_headers()
            elif route == "endless-headers":
                self.wfile.write(b"HTTP/1.0 200 OK\r\nContent-Type: audio/mpeg\r\n")
                until = time.time() + 20
                count = 0
                while time.time() < until:
                    self.wfile.write(b"icy-x%d: %s\r\n" % (count, b"y" * 200))
                    count += 1
                    if count % 50 == 0:
                        time.sleep(0.001)
            elif route == "garbage":
                import random
                body = random.Random(7).randbytes(int(query.get("bytes", "200000")))
                self.send_response(200)
                self.send_header("Content-Type", query.get("type", "application/octet-stream"))
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            elif route == "html":
                body = b"<!DOCTYPE html><html><body><h1>Welcome</h1></body></html>\n"
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            else:
                self.send_error(404)
        except (BrokenPipeError, ConnectionResetError, ssl.SSLError):
            pass

    def send_file(self, name, cut=None):
        path = os.path.join(ROOT, os.path.basename(name))
        if not os.path.isfile(path):
            self.send_error(404)
            return
        with open(path, "rb") as f:
            data = f.read()
        self.send_response(200)
        self.send_header("Content-Type", TYPES.get(os.path.splitext(path)[1], "application/octet-stream"))
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data if cut is None else data[:cut])

    def send_unsized(self, name, bps, cut):
        path = os.path.join(ROOT, os.path.basename(name))
        if not os.path.isfile(path):
            self.send_error(404)
            return
        with open(path, "rb") as f:
            data = f.read()
        if cut > 0:
            data = data[:cut]
        self.send_response(200)
        self.send_header("Content-Type", TYPES.get(os.path.splitext(path)[1], "application/octet-stream"))
        self.end_headers()
        if bps <= 0:
            self.wfile.write(data)
            return
        start = time.monotonic()
        sent = 0
        while sent < len(data):
            due = min(int(bps * (time.monotonic() - start + 0.5)), len(data)) - sent
            if due <= 0:
                time.sleep(0.02)
                continue
            self.wfile.write(data[sent:sent + due])
            self.wfile.flush()
            sent += due

    def send_live(self, name, bps, every, cut_after, title_length=0):
        path = os.path.join(ROOT, os.path.basename(name))
        with open(path, "rb") as f:
            data = f.read()
        icy = self.headers.get("Icy-MetaData") == "1"
        self.send_response(200)
        self.send_header("Content-Type", TYPES.get(os.path.splitext(path)[1], "audio/mpeg"))
        self.send_header("icy-name", "VoiceMemo Test Radio")
        if icy:
            self.send_header("icy-metaint", str(METAINT))
        self.end_headers()
        start = time.monotonic()
        sent = 0            # audio bytes sent
        offset = 0          # position in the looped file
        until_meta = METAINT
        while True:
            elapsed = time.monotonic() - start
            if cut_after is not None and elapsed >= cut_after:
                self.connection.shutdown(2) if hasattr(self.connection, "shutdown") else None
                return
            due = int(bps * (elapsed + 0.5)) - sent if bps > 0 else 1 << 16
            if due <= 0:
                time.sleep(0.02)
                continue
            while due > 0:
                n = min(due, len(data) - offset, until_meta if icy else due)
                self.wfile.write(data[offset:offset + n])
                sent += n
                due -= n
                offset = (offset + n) % len(data)
                if icy:
                    until_meta -= n
                    if until_meta == 0:
                        song = int(elapsed / every) + 1 if bps > 0 else sent // METAINT
                        text = "Song %d" % song
                        while len(text) < title_length:
                            text = (text + " la")[:title_length]
                        title = "StreamTitle='%s';" % text
                        blocks = (len(title) + 15) // 16
                        self.wfile.write(bytes([blocks]) + title.encode().ljust(blocks * 16, b"\0"))
                        until_meta = METAINT
            self.wfile.flush()


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    server = Server(("127.0.0.1", 0), Handler)
    if "--cert" in sys.argv:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(sys.argv[sys.argv.index("--cert") + 1], sys.argv[sys.argv.index("--key") + 1])
        server.socket = context.wrap_socket(server.socket, server_side=True)
    print(server.server_address[1], flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    # Ends with the test: its standard input is a pipe the test holds.
    sys.stdin.read()
    os._exit(0)


main()
