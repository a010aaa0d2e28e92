"""The optional packages the integrations need, and the error that says how to install one."""

from __future__ import annotations

from compactor.wording import install_command

#: Each extra's install command, as it works in this project's virtual environment.
INSTALL = {extra: install_command(extra) for extra in ("langchain", "agents", "tokens")}


class IntegrationUnavailable(ImportError):
    """An optional package is not installed; the message names it and the command to install
    it."""

    def __init__(self, what: str, extra: str) -> None:
        self.extra = extra
        super().__init__(f"{what} needs the {extra} extra; install it with: {INSTALL[extra]}")
