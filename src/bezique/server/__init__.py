"""Play in the browser: the ASGI server (FastAPI, uvicorn, WebSockets) and its storage.

``bezique serve`` runs :func:`serve`; :func:`create_app` builds the application for tests and
deployments.  Needs the ``web`` extra.
"""

from .app import create_app, serve

__all__ = ["create_app", "serve"]
