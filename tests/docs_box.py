"""docs/box.png: "Your box" on the simulator page with the shipped starter set open.

`.venv/bin/python tests/docs_box.py` takes it again: the page's own server, and
Debian's chromium driven by tests/web/box_picture.mjs (the starter set opened,
three of its layers stacked, the deck built).
"""

import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)


def main():
    from layerlight_tools.web import server
    out = os.path.join(REPO, "docs", "box.png")
    srv = server.start_in_thread(server.Site())
    try:
        subprocess.run(["node", os.path.join(HERE, "web", "box_picture.mjs"), server.url_of(srv), out],
                       cwd=REPO, check=True, timeout=300)
    finally:
        srv.shutdown()
        srv.server_close()
    print(out)


if __name__ == "__main__":
    sys.exit(main())
