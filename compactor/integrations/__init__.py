"""Integrations: the chosen setting leaves the explorer for an agent. :mod:`.setting` is the
setting and its ``compaction.toml``."""

from compactor.integrations.setting import (
    FILE_NAME,
    Setting,
    SettingError,
    load_setting,
    setting_from_toml,
    setting_toml,
)

__all__ = [
    "FILE_NAME",
    "Setting",
    "SettingError",
    "load_setting",
    "setting_from_toml",
    "setting_toml",
]
