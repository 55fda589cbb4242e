# The Layerlight UF2's frozen modules (make uf2 passes this file as FROZEN_MANIFEST):
# the port's own modules and the layerlight package (../manifest.py), the main.py that
# starts the device at power-on, and layerlight_build (the project's version), which
# `make uf2` writes under build/.
include("../manifest.py")
module("main.py")
module("layerlight_build.py", base_path="../build/uf2")
