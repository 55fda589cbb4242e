# Layerlight firmware entry point: everything lives in the layerlight package.
import layerlight.start  # noqa: F401
