# Layerlight firmware: see main.py and app.py for the way in.
