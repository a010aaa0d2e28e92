"""The interactive documentation at ``/docs``, served entirely from this service.

FastAPI's own page loads Swagger UI from a CDN (it fails offline, and the scripts come with no
integrity check). Here the same page refers only to files this service serves itself, from the
Swagger UI release that the ``swagger-ui-bundle-v2`` package ships (part of the ``service``
extra), and Swagger UI's online validator, which would send the document to a third party, is
switched off.
"""

from __future__ import annotations

import functools

from fastapi import FastAPI
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import Response
from starlette.exceptions import HTTPException as StarletteHTTPException

DOCS_PATH = "/docs"
ASSETS_PATH = "/docs/assets"
#: The only files served, with their media types.
ASSETS = {
    "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
    "swagger-ui.css": "text/css; charset=utf-8",
    "favicon-32x32.png": "image/png",
}


def add_routes(app: FastAPI) -> None:
    """``GET /docs`` and its assets under ``/docs/assets/``."""

    @app.get(DOCS_PATH, include_in_schema=False)
    async def swagger_ui() -> Response:
        page = get_swagger_ui_html(
            openapi_url=app.openapi_url or "/openapi.json",
            title=f"{app.title}: API documentation",
            swagger_js_url=f"{ASSETS_PATH}/swagger-ui-bundle.js",
            swagger_css_url=f"{ASSETS_PATH}/swagger-ui.css",
            swagger_favicon_url=f"{ASSETS_PATH}/favicon-32x32.png",
            swagger_ui_parameters={"validatorUrl": None},
        )
        return Response(page.body, media_type="text/html")

    @app.get(ASSETS_PATH + "/{name}", include_in_schema=False)
    async def asset(name: str) -> Response:
        if name not in ASSETS:
            raise StarletteHTTPException(404)
        headers = {"Cache-Control": "public, max-age=86400"}
        return Response(_read(name), media_type=ASSETS[name], headers=headers)


@functools.cache
def _read(name: str) -> bytes:
    from swagger_ui_bundle import swagger_ui_path  # the service extra's Swagger UI release

    return (swagger_ui_path / name).read_bytes()
