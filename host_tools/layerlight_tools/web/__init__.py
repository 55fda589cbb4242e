"""The simulator in a web page: the page, its Python driver, and the local server."""
