"""The HTTP service (the ``service`` extra: FastAPI and uvicorn): ``python -m compactor serve``.

``POST /v1/memory-compact`` returns exactly :func:`compactor.compact`'s response,
``POST /v1/context/trim`` the seed-003 trim, ``GET /healthz`` a liveness check and ``/docs`` the
OpenAPI documentation. Errors: see :mod:`compactor.service._edge`.
"""

from compactor.service._app import (
    COMPACT_PATH,
    DEFAULT_MAX_BODY_BYTES,
    HEALTH_PATH,
    MAX_BODY_ENV,
    OFFLOAD_BYTES,
    PROCESSES_ENV,
    TRIM_PATH,
    TRIM_REQUEST_EXAMPLE,
    create_app,
    create_app_from_environment,
)
from compactor.service._edge import ERROR_SCHEMA, TITLES

__all__ = [
    "COMPACT_PATH",
    "DEFAULT_MAX_BODY_BYTES",
    "ERROR_SCHEMA",
    "HEALTH_PATH",
    "MAX_BODY_ENV",
    "OFFLOAD_BYTES",
    "PROCESSES_ENV",
    "TITLES",
    "TRIM_PATH",
    "TRIM_REQUEST_EXAMPLE",
    "create_app",
    "create_app_from_environment",
]
