"""The local server of `layerlight sim --web`.

It serves, from 127.0.0.1 only: the page (web/page/), the MicroPython
WebAssembly build of the pinned npm package, the firmware and the simulator's
Python (copied by the page into the wasm filesystem), and the simulated
device's flash (decks, config). A manifest lists them, with the options the
device starts with. Nothing else is served, and the page loads nothing from
anywhere else. "Your box" (box.py) checks, turns, stacks and builds the sets
the page paints.

It answers only its own page: a request whose Host is not this server's own
127.0.0.1:PORT or localhost:PORT (a DNS rebinding), or whose Origin is another
site's (a form or fetch from another tab), is refused, as Jupyter guards its
server; a request body has a size limit, and one build runs at a time.
"""

import json
import os
import sys
import threading
import webbrowser
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

from layerlight_tools import firmware_files
from layerlight_tools.web import box, box_photo

HERE = os.path.dirname(os.path.abspath(__file__))
PAGE = os.path.join(HERE, "page")
TOOLS = os.path.dirname(HERE)
WASM_PACKAGE = os.path.join(firmware_files.REPO, "node_modules", "@micropython", "micropython-webassembly-pyscript")

TYPES = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".wasm": "application/wasm",
    ".json": "application/json",
    ".py": "text/x-python; charset=utf-8",
    ".png": "image/png",
}
BINARY = "application/octet-stream"
MAX_POST = 4 << 20  # bytes a page may send at once (the play log of 500 games is about 140 KB)

# the simulator's own Python, as the page puts it into the wasm filesystem
SIM_MODULES = ("__init__.py", "simcore.py", "web/__init__.py", "web/webdevice.py")


class SetupError(RuntimeError):
    """Something the page needs is not installed."""


def content_type(name):
    return TYPES.get(os.path.splitext(name)[1], BINARY)


def led_colour_tables():
    """The colour model for the page (the wasm MicroPython there has no coloraide): for each
    brightness the firmware can set, the screen byte of each channel value (led_colour: the
    model is channel by channel, so 256 bytes say it all)."""
    from layerlight.modes import settings
    from layerlight_tools import led_colour
    caps = set(dict((item[0], item[2]) for item in settings.ITEMS)["BRIGHT"]) | {led_colour.DEFAULT_CAP}
    return {"default": "%g" % led_colour.DEFAULT_CAP,
            "tables": {"%g" % cap: list(led_colour.screen_table(cap)) for cap in sorted(caps)}}


class Site:
    """Every URL the server answers, fixed when it starts (no path from a request reaches the disk)."""

    def __init__(self, width=16, height=16, seed=1, game=None, players=0, deck=None, config=None, flash_dir=None):
        for name in ("micropython.mjs", "micropython.wasm"):
            if not os.path.isfile(os.path.join(WASM_PACKAGE, name)):
                raise SetupError(
                    "%s is missing: the pinned npm packages are not installed (run `make sim-web`, "
                    "or `npm ci` in %s)" % (os.path.join(WASM_PACKAGE, name), firmware_files.REPO))
        self.routes = {}  # url path -> (file path or bytes, content type)
        for name in sorted(os.listdir(PAGE)):
            self.routes["/" + name] = (os.path.join(PAGE, name), content_type(name))
        self.routes["/"] = self.routes["/index.html"]
        for name in ("micropython.mjs", "micropython.wasm"):
            self.routes["/mpy/" + name] = (os.path.join(WASM_PACKAGE, name), content_type(name))
        code = []
        for rel in firmware_python():
            url = "/code/firmware/" + rel
            self.routes[url] = (os.path.join(firmware_files.FIRMWARE, rel), content_type(rel))
            code.append({"url": url, "path": "/" + rel})
        for rel in SIM_MODULES:
            url = "/code/layerlight_tools/" + rel
            self.routes[url] = (os.path.join(TOOLS, rel), content_type(rel))
            code.append({"url": url, "path": "/lib/layerlight_tools/" + rel})
        flash = []
        given = firmware_files.device_files(deck, config)
        self.flash_dir = None
        if flash_dir is not None:
            # `--flash DIR`: the device starts with what it wrote in earlier runs, and the
            # page sends what it writes now (POST /flash-write) to the same folder
            from layerlight_tools.sim_flash import FolderStorage
            kept = FolderStorage(given, flash_dir)
            self.flash_dir = kept
            given = dict(kept.files)
        for name, data in sorted(given.items()):
            url = "/flash/" + name
            self.routes[url] = (data, content_type(name) if name.endswith(".json") else BINARY)
            flash.append({"url": url, "name": name})
        manifest = {
            "code": code,
            "flash": flash,
            "device": {"width": width, "height": height, "seed": seed, "game": game or "", "players": players},
            "keep_flash": flash_dir is not None,
        }
        self.routes["/manifest.json"] = (json.dumps(manifest, indent=1).encode(), TYPES[".json"])
        self.routes["/led-colours.json"] = (json.dumps(led_colour_tables()).encode(), TYPES[".json"])
        self.routes["/box/shipped.json"] = (json.dumps(box.shipped_list()).encode(), TYPES[".json"])
        self.routes["/box/limits.json"] = (json.dumps(box.limits()).encode(), TYPES[".json"])
        self.builds = box.Builds()

    def write_flash(self, body):
        """POST /flash-write: {name: base64 or null} from the page; False if refused. Only the
        device's own files (a plain name, not the run's decks or settings file) reach the folder."""
        import base64
        kept = self.flash_dir
        if kept is None:
            return False
        try:
            changes = json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            return False
        if not isinstance(changes, dict):
            return False
        for name, data in changes.items():
            if not isinstance(name, str) or not name or "/" in name or "\\" in name or name.startswith(".") \
                    or name in kept.given:
                return False
            try:
                if data is None:
                    kept.remove(name)
                else:
                    kept.files[name] = base64.b64decode(data, validate=True)
                    kept._sync(name)
            except (ValueError, TypeError):
                return False
        return True

    def get(self, path):
        """(body bytes, content type) for a URL path, or None."""
        route = self.routes.get(path.split("?", 1)[0])
        if route is None:
            return None
        body, ctype = route
        if isinstance(body, str):
            # read on every request: an edited firmware file shows on reload
            try:
                with open(body, "rb") as f:
                    body = f.read()
            except OSError:
                return None
        return body, ctype


def firmware_python():
    """The firmware's .py files, relative to firmware/ with '/' separators, sorted."""
    out = []
    for root, dirs, files in os.walk(firmware_files.FIRMWARE):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in files:
            if name.endswith(".py"):
                rel = os.path.relpath(os.path.join(root, name), firmware_files.FIRMWARE)
                out.append(rel.replace(os.sep, "/"))
    return sorted(out)


def own_hosts(port):
    """The Host names of this server's own page: 127.0.0.1 or localhost with the port, which a
    browser leaves out (of the Host and the Origin) when it is HTTP's own, 80."""
    own = ("127.0.0.1:%d" % port, "localhost:%d" % port)
    return own + ("127.0.0.1", "localhost") if port == 80 else own


class Handler(BaseHTTPRequestHandler):
    site = None       # set on the subclass made by make_server
    quiet = True
    server_version = "layerlight"

    def do_GET(self):
        if self._foreign():
            return
        path = self.path.split("?", 1)[0]
        if path.startswith("/box/"):
            self._box_get(path)
            return
        self._answer(True)

    def do_HEAD(self):
        if self._foreign():
            return
        self._answer(False)

    def do_POST(self):
        if self._foreign():
            return
        path = self.path.split("?", 1)[0]
        length = self.headers.get("Content-Length")
        try:
            length = int(length)
        except (TypeError, ValueError):
            length = -1
        if path.startswith("/box/"):
            self._box_post(path, length)
            return
        # the device's files for `sim --web --flash DIR`
        if path != "/flash-write" or not 0 < length <= MAX_POST:
            self.send_error(HTTPStatus.NOT_FOUND)
            return
        if not self.site.write_flash(self.rfile.read(length)):
            self.send_error(HTTPStatus.BAD_REQUEST)
            return
        self.send_response(HTTPStatus.NO_CONTENT)
        self.end_headers()

    # --- only our own page ---------------------------------------------------------

    def _foreign(self):
        """Refuse (403, True) a request that is not from this server's own page."""
        port = self.server.server_address[1]
        own = own_hosts(port)
        host = self.headers.get("Host")
        origin = self.headers.get("Origin")
        if host not in own:
            why = "this server answers only http://127.0.0.1:%d/, not a request for host %s" % (port, host)
        elif origin is not None and origin not in ["http://" + h for h in own]:
            why = "this server answers only its own page, not a request from %s" % origin
        else:
            return False
        self._json(HTTPStatus.FORBIDDEN, {"error": why})
        return True

    # --- Your box --------------------------------------------------------------------

    def _box_get(self, path):
        if path == "/box/build":
            self._json(HTTPStatus.OK, self.site.builds.status())
            return
        if path == "/box/cards.pdf":
            # the printable cards of a deck this server built (the page names it by its sha-256)
            sha = parse_qs(urlsplit(self.path).query).get("deck", [""])[0]
            try:
                found = self.site.builds.pdf(sha)
            except Exception as e:  # a bug here, not the person's deck: one line, not a dropped connection
                self._json(HTTPStatus.INTERNAL_SERVER_ERROR, {"error": "the cards could not be printed: %s" % e})
                return
            if found is None:
                self._json(HTTPStatus.NOT_FOUND, {"error": "no such deck here: build it again"})
                return
            data, name = found
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", "application/pdf")
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Content-Disposition", 'attachment; filename="%s"' % name.replace('"', ""))
            self.send_header("Cache-Control", "no-store")
            self.send_header("X-Content-Type-Options", "nosniff")
            self.end_headers()
            self.wfile.write(data)
            return
        if path.startswith("/box/shipped/"):
            found = box.open_shipped(path[len("/box/shipped/"):])
            if found is not None:
                self._json(HTTPStatus.OK, found)
                return
        self._answer(True)

    def _box_post(self, path, length):
        if length < 0:
            self._json(HTTPStatus.LENGTH_REQUIRED, {"error": "a request without its length"})
            return
        # a photo (base64, with the set) may be megabytes; everything else is a set or less
        limit = box_photo.MAX_BODY if path == "/box/photo" else box.MAX_UPLOAD
        if length > limit:
            # read what was sent (up to a bound), so the browser gets the answer, not a reset connection
            bound = min(16 * limit, 64 << 20)
            left = length if length <= bound else 0
            while left > 0:
                chunk = self.rfile.read(min(left, 65536))
                if not chunk:
                    break
                left -= len(chunk)
            if not length <= bound:
                self.close_connection = True
            name = parse_qs(urlsplit(self.path).query).get("name", [""])[0]
            if path == "/box/photo":
                error = box_photo.too_big(box.file_name(name, toml=False) if name else "the photo", length)
            else:
                error = "%s: %d bytes, more than a set file can be (at most %d KB)" % (
                    box.file_name(name) if name else "the request", length, box.MAX_UPLOAD // 1024)
            self._json(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, {"error": error})
            return
        raw = self.rfile.read(length)
        try:
            if path == "/box/open":
                name = parse_qs(urlsplit(self.path).query).get("name", [""])[0]
                found = box.open_file(name, raw)
                self._json(HTTPStatus.BAD_REQUEST if "error" in found else HTTPStatus.OK, found)
                return
            try:
                body = json.loads(raw.decode("utf-8"))
            except (UnicodeDecodeError, ValueError):
                raise box.BadRequest("not JSON")
            if not isinstance(body, dict):
                raise box.BadRequest("not a JSON object")
            if path == "/box/check":
                self._json(HTTPStatus.OK, box.check(body))
            elif path == "/box/stack":
                self._json(HTTPStatus.OK, box.stack(body))
            elif path == "/box/resize":
                self._json(HTTPStatus.OK, box.resize(body))
            elif path == "/box/photo":
                name = parse_qs(urlsplit(self.path).query).get("name", [""])[0]
                self._json(HTTPStatus.OK, box_photo.read(body, box.file_name(name, toml=False) if name else "the photo"))
            elif path == "/box/build":
                status, answer = self.site.builds.start(body)
                self._json(status, answer)
            else:
                self._json(HTTPStatus.NOT_FOUND, {"error": "no such thing: %s" % path})
        except box.BadRequest as e:
            self._json(HTTPStatus.BAD_REQUEST, {"error": str(e)})
        except Exception as e:  # a bug here, not the person's set: one line for the page, not a dropped connection
            self._json(HTTPStatus.INTERNAL_SERVER_ERROR, {"error": "%s: %s: %s" % (path, type(e).__name__, e)})

    def _json(self, status, data):
        body = json.dumps(data).encode()
        self.send_response(status)
        self.send_header("Content-Type", TYPES[".json"])
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.end_headers()
        self.wfile.write(body)

    def _answer(self, with_body):
        found = self.site.get(self.path)
        if found is None:
            self.send_error(HTTPStatus.NOT_FOUND)
            return
        body, ctype = found
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.end_headers()
        if with_body:
            self.wfile.write(body)

    def log_message(self, fmt, *args):
        if not self.quiet:
            BaseHTTPRequestHandler.log_message(self, fmt, *args)


def make_server(site, port=0, quiet=True):
    """A ThreadingHTTPServer for `site` on 127.0.0.1:port (0 = a free port), not yet serving."""
    handler = type("SiteHandler", (Handler,), {"site": site, "quiet": quiet})
    server = ThreadingHTTPServer(("127.0.0.1", port), handler)
    server.daemon_threads = True
    return server


def url_of(server):
    host, port = server.server_address[:2]
    return "http://%s:%d/" % (host, port)


def start_in_thread(site, port=0):
    """Serve in a background thread (tests); returns the server (call .shutdown())."""
    server = make_server(site, port)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def has_desktop():
    """False on a Linux/BSD without a display, where webbrowser would start a text browser in this terminal."""
    if sys.platform.startswith(("linux", "freebsd", "openbsd", "netbsd")):
        return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return True


def serve(site, port, open_browser=True, out=sys.stdout):
    """Serve until interrupted; prints the URL first, and opens it in the browser unless told not to."""
    server = make_server(site, port)
    url = url_of(server)
    out.write("Layerlight simulator: %s  (Ctrl-C stops it)\n" % url)
    out.flush()
    if open_browser and has_desktop():
        threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()
    elif open_browser:
        out.write("(no desktop here to open a browser on: open the URL yourself)\n")
        out.flush()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0
