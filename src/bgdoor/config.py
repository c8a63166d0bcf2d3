"""door.cfg: the sysop's INI configuration, with a default for every key."""

from __future__ import annotations

import configparser
import os
from dataclasses import dataclass, fields
from pathlib import Path

from bgdoor.rules.game import LONGEST_MATCH


class ConfigError(ValueError):
    pass


@dataclass
class Config:
    host: str = "0.0.0.0"
    port: int = 2323
    max_callers: int = 300
    max_per_address: int = 8
    negotiation_wait: float = 2.0
    login_attempts: int = 5
    login_delay: float = 1.0
    login_timeout: float = 120.0
    idle_timeout: float = 600.0
    poll_interval: float = 2.0
    database_url: str = "sqlite:///data/bgdoor.db"
    # SQLite: how long it waits for another node's lock (ms); FULL or NORMAL durability; and
    # how long a write waits for a busy database before the caller hears so (seconds).
    busy_timeout_ms: int = 5000
    sqlite_synchronous: str = "FULL"
    write_patience: float = 3.0
    default_length: int = 3
    forfeit_days: float = 14.0
    default_theme: str = "classic"
    door_idle_timeout: float = 300.0
    time_warning: float = 2.0
    door_goodbye_wait: float = 3.0
    texts: str = "data/texts"
    source: str = ""  # the file this was read from, absolute; "" for the built-in defaults


# (section, key) -> field name
_KEYS = {
    ("server", "host"): "host",
    ("server", "port"): "port",
    ("server", "max_callers"): "max_callers",
    ("server", "max_per_address"): "max_per_address",
    ("server", "negotiation_wait"): "negotiation_wait",
    ("server", "login_attempts"): "login_attempts",
    ("server", "login_delay"): "login_delay",
    ("server", "login_timeout"): "login_timeout",
    ("session", "idle_timeout"): "idle_timeout",
    ("session", "poll_interval"): "poll_interval",
    ("database", "url"): "database_url",
    ("database", "busy_timeout_ms"): "busy_timeout_ms",
    ("database", "synchronous"): "sqlite_synchronous",
    ("database", "write_patience"): "write_patience",
    ("game", "default_length"): "default_length",
    ("game", "forfeit_days"): "forfeit_days",
    ("game", "default_theme"): "default_theme",
    ("door", "idle_timeout"): "door_idle_timeout",
    ("door", "time_warning"): "time_warning",
    ("door", "goodbye_wait"): "door_goodbye_wait",
    ("paths", "texts"): "texts",
}


# Environment variables that override the file, read once at start-up like it.
ENVIRONMENT = {
    "BGDOOR_BUSY_TIMEOUT_MS": "busy_timeout_ms",
    "BGDOOR_SQLITE_SYNCHRONOUS": "sqlite_synchronous",
    "BGDOOR_WRITE_PATIENCE": "write_patience",
}
SYNCHRONOUS = ("OFF", "NORMAL", "FULL", "EXTRA")  # as SQLite names them


def load_config(path: str | Path | None) -> Config:
    """Read `path`, then the BGDOOR_* environment variables (which win over the file).

    A missing default file gives the defaults; a named missing file is an error.
    """
    config = Config()
    named = path is not None
    path = Path("door.cfg") if path is None else Path(path)
    if named or path.exists():
        _read_file(config, path)
    for variable, name in ENVIRONMENT.items():
        raw = os.environ.get(variable)
        if raw is not None:
            setattr(config, name, _value(name, raw, variable))
    synchronous = config.sqlite_synchronous = config.sqlite_synchronous.upper()
    if synchronous not in SYNCHRONOUS:
        raise ConfigError(f"[database] synchronous is one of {', '.join(SYNCHRONOUS)}, not {synchronous!r}")
    return config


def _value(name: str, raw: str, where: str) -> object:
    kind = {f.name: f.type for f in fields(Config)}[name]
    try:
        return int(raw) if kind == "int" else float(raw) if kind == "float" else raw.strip()
    except ValueError:
        raise ConfigError(f"{where} must be a number, not {raw!r}") from None


def _read_file(config: Config, path: Path) -> None:
    parser = configparser.ConfigParser(inline_comment_prefixes=(";", "#"))
    try:
        with open(path, encoding="utf-8") as fh:
            parser.read_file(fh)
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror}") from None
    except configparser.Error as exc:
        raise ConfigError(f"{path}: {exc}") from None
    for section in parser.sections():
        for key, raw in parser.items(section):
            name = _KEYS.get((section, key))
            if name is None:
                raise ConfigError(f"{path}: unknown key '{key}' in [{section}]")
            setattr(config, name, _value(name, raw, f"{path}: [{section}] {key}"))
    # Relative paths are the config file's neighbours, not the current directory's: a BBS may
    # start the door anywhere.
    base = path.resolve().parent
    config.source = str(path.resolve())
    config.database_url = _beside(config.database_url, base)
    if not Path(config.texts).is_absolute():
        config.texts = str(base / config.texts)
    if not 1 <= config.port <= 65535:
        raise ConfigError(f"{path}: [server] port must be 1 to 65535")
    if not 1 <= config.default_length <= LONGEST_MATCH:
        raise ConfigError(f"{path}: [game] default_length must be 1 to {LONGEST_MATCH}")


def _beside(url: str, base: Path) -> str:
    """An SQLite URL with a relative file path made absolute from `base`; any other URL as it is."""
    prefix = "sqlite:///"
    if not url.startswith(prefix) or url.startswith(prefix + "/"):
        return url
    rest = url[len(prefix):]
    name, sep, query = rest.partition("?")
    if not name or name == ":memory:" or name.startswith("file:"):
        return url
    return f"{prefix}{base / name}{sep}{query}"


def log_path(config: Config) -> Path:
    """Where the door logs by default: beside an SQLite database, else beside the configuration
    file, else in the user's state folder; never simply the current directory."""
    prefix = "sqlite:///"
    if config.database_url.startswith(prefix):
        name = config.database_url[len(prefix):].partition("?")[0]
        if name and name != ":memory:" and not name.startswith("file:"):
            return Path(name).resolve().parent / "door.log"
    if config.source:
        return Path(config.source).parent / "door.log"
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state) / "bgdoor" / "door.log"
