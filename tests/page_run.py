"""One run of a page test script (tests/web/*.mjs) in a real Chromium against the web server,
shared by the "Your box" browser tests: what the browser needs checked first (each missing part
a failure naming how `make test` provides it), the server started and stopped round the run, the
script's last line of output read as its JSON answer."""

import json
import os
import shutil
import subprocess

import pytest

from layerlight_tools import firmware_files
from layerlight_tools.web import server

REPO = firmware_files.REPO
CHROMIUM = os.environ.get("LAYERLIGHT_CHROMIUM", "/usr/bin/chromium")


def run_page(script, args, timeout):
    """node SCRIPT URL *ARGS with the server up: the JSON on the script's last line."""
    node = shutil.which("node")
    if node is None:
        pytest.fail("Node.js is not on PATH (it drives the browser)")
    if not os.path.isdir(os.path.join(REPO, "node_modules", "playwright-core")):
        pytest.fail("node_modules/playwright-core is missing: run `make test` (npm ci)")
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail("%s is missing: `make test` installs it (apt-get install chromium)" % CHROMIUM)
    srv = server.start_in_thread(server.Site())
    try:
        r = subprocess.run([node, script, server.url_of(srv)] + [str(a) for a in args], cwd=REPO,
                           capture_output=True, text=True, timeout=timeout)
    finally:
        srv.shutdown()
        srv.server_close()
    assert r.returncode == 0, "the browser run failed:\n" + r.stderr[-4000:]
    return json.loads(r.stdout.strip().split("\n")[-1])
