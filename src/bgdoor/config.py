"""door.cfg: the sysop's INI configuration, with a default for every key."""

from __future__ import annotations

import ast
import configparser
import ipaddress
import math
import os
import re
from dataclasses import dataclass, field, fields
from pathlib import Path

from bgdoor.rules.game import LONGEST_MATCH


class ConfigError(ValueError):
    pass


IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network
TAG_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,8}")
SHOW_BOARD = ("ambiguous", "always")


def address_in(address: str, networks: tuple[IPNetwork, ...]) -> bool:
    """Whether `address` (IPv4-mapped IPv6 counting as IPv4) is in one of `networks`."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return any(ip.version == net.version and ip in net for net in networks)


def parse_networks(text: str, where: str) -> tuple[IPNetwork, ...]:
    """A comma-separated list of addresses and networks; ConfigError naming `where` if one is not."""
    networks: list[IPNetwork] = []
    for part in text.split(","):
        if part.strip():
            try:
                networks.append(ipaddress.ip_network(part.strip(), strict=False))
            except ValueError:
                raise ConfigError(f"{where}: {part.strip()!r} is not an address or network") from None
    return tuple(networks)


@dataclass(frozen=True)
class MemberBBS:
    """A `[bbs TAG]` section: a board whose callers come in over RLogin."""

    tag: str  # upper case, as shown after the @
    name: str
    secret: str
    addresses: tuple[IPNetwork, ...]
    auth: str = "secret"  # "secret": Synchronet's form; "address": DoorParty's, the address list alone
    max_callers: int | None = None  # most of its callers at once; None: only [server] max_callers

    def allows(self, address: str) -> bool:
        return address_in(address, self.addresses)


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
    poll_interval: float = 2.0  # unused since the change feed; kept so older door.cfg files load
    database_url: str = "sqlite:///data/bgdoor.db"
    # SQLite: how long it waits for another node's lock (ms); FULL or NORMAL durability; and
    # how long a write waits for a busy database before the caller hears so (seconds).
    busy_timeout_ms: int = 5000
    sqlite_synchronous: str = "FULL"
    write_patience: float = 3.0
    default_length: int = 3
    forfeit_days: float = 14.0
    door_idle_timeout: float = 300.0
    time_warning: float = 2.0
    door_goodbye_wait: float = 3.0
    texts: str = "data/texts"
    source: str = ""  # the file this was read from, absolute; "" for the built-in defaults
    presence_ttl: float = 30.0
    rlogin_port: int = 0  # 0: no RLogin
    rlogin_host: str = "0.0.0.0"
    show_board: str = "ambiguous"
    bbses: dict[str, MemberBBS] = field(default_factory=dict)  # by upper-case tag
    # Load balancers trusted to send a PROXY protocol header naming the real caller, for the
    # telnet and the RLogin listener; "" (the default): none.
    proxy_from: str = ""
    rlogin_proxy_from: str = ""
    proxy_trusted: tuple[IPNetwork, ...] = ()
    rlogin_proxy_trusted: tuple[IPNetwork, ...] = ()


# (section, key) -> field name
# Keys earlier versions read and this one no longer needs: an old door.cfg still loads.
_RETIRED = {("game", "default_theme")}

_KEYS = {
    ("server", "host"): "host",
    ("server", "port"): "port",
    ("server", "max_callers"): "max_callers",
    ("server", "max_per_address"): "max_per_address",
    ("server", "negotiation_wait"): "negotiation_wait",
    ("server", "login_attempts"): "login_attempts",
    ("server", "login_delay"): "login_delay",
    ("server", "login_timeout"): "login_timeout",
    ("server", "proxy_from"): "proxy_from",
    ("session", "idle_timeout"): "idle_timeout",
    ("session", "poll_interval"): "poll_interval",
    ("database", "url"): "database_url",
    ("database", "busy_timeout_ms"): "busy_timeout_ms",
    ("database", "synchronous"): "sqlite_synchronous",
    ("database", "write_patience"): "write_patience",
    ("game", "default_length"): "default_length",
    ("game", "forfeit_days"): "forfeit_days",
    ("door", "idle_timeout"): "door_idle_timeout",
    ("door", "time_warning"): "time_warning",
    ("door", "goodbye_wait"): "door_goodbye_wait",
    ("paths", "texts"): "texts",
    ("session", "presence_ttl"): "presence_ttl",
    ("rlogin", "port"): "rlogin_port",
    ("rlogin", "host"): "rlogin_host",
    ("rlogin", "show_board"): "show_board",
    ("rlogin", "proxy_from"): "rlogin_proxy_from",
}

_SECTIONS = sorted({section for section, _ in _KEYS})

_BBS_KEYS = ("name", "secret", "addresses", "auth", "max_callers")


def printable_problem(text: str) -> str | None:
    if any(not ch.isprintable() for ch in text):
        return "has control characters"
    return None


def _member(path: Path, section: str, tag: str, items: dict[str, str]) -> MemberBBS:
    where = f"{path}: [{section}]"
    if not TAG_PATTERN.fullmatch(tag):
        raise ConfigError(f"{where}: a BBS tag is 1 to 8 letters, digits, - or _")
    for key in items:
        if key not in _BBS_KEYS:
            raise ConfigError(f"{where}: unknown key '{key}' (known: {', '.join(_BBS_KEYS)})")
    name = items.get("name", "").strip() or tag.upper()
    if printable_problem(name) or len(name) > 40:
        raise ConfigError(f"{where}: name must be printable, at most 40 characters")
    auth = items.get("auth", "secret").strip().lower()
    if auth not in ("secret", "address"):
        raise ConfigError(f"{where}: auth is 'secret' or 'address', not {auth!r}")
    secret = items.get("secret", "").strip()
    if auth == "secret" and not secret:
        raise ConfigError(f"{where}: needs a secret (or auth = address, to trust its addresses alone)")
    networks = parse_networks(items.get("addresses", ""), where)
    if not networks:
        # An empty list would let anyone in; 0.0.0.0/0 says so on purpose.
        raise ConfigError(f"{where}: addresses lists where its gateway connects from (0.0.0.0/0 for anywhere)")
    most = items.get("max_callers", "").strip()
    max_callers = None
    if most:
        try:
            max_callers = int(most)
        except ValueError:
            raise ConfigError(f"{where}: max_callers must be a whole number, not {most!r}") from None
        if max_callers < 1:
            raise ConfigError(f"{where}: max_callers must be at least 1, not {max_callers}")
    return MemberBBS(
        tag=tag.upper(), name=name, secret=secret, addresses=networks, auth=auth, max_callers=max_callers
    )


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
    # Every message names the file as it was given ('synchronous' had named none, the ranges
    # its absolute path, the rest the path given).
    where = ""
    if named or path.exists():
        _read_file(config, path)
        where = f"{path}: "
    for variable, name in ENVIRONMENT.items():
        raw = os.environ.get(variable)
        if raw is not None:
            setattr(config, name, _value(name, raw, variable))
    synchronous = config.sqlite_synchronous = config.sqlite_synchronous.upper()
    if synchronous not in SYNCHRONOUS:
        raise ConfigError(f"{where}[database] synchronous is one of {', '.join(SYNCHRONOUS)}, not {synchronous!r}")
    _check_ranges(config, where)
    return config


# The least each number can be and still work: an idle_timeout of 0 dropped every caller before
# they could type their handle, and login_attempts = 0 hung up at the first wrong password.
# (forfeit_days = 0 means never; time_warning = 0, no warning; the waits of 0, none.)
_LEAST: dict[str, float] = {
    "max_callers": 1,
    "max_per_address": 1,
    "negotiation_wait": 0,
    "login_attempts": 1,
    "login_delay": 0,
    "login_timeout": 1,
    "idle_timeout": 1,
    "busy_timeout_ms": 0,
    "write_patience": 0.1,
    "forfeit_days": 0,
    "door_idle_timeout": 1,
    "time_warning": 0,
    "door_goodbye_wait": 0,
}


# The most a number can be and still work: forfeit_days = 1e9 overflowed the date it counts
# back to, failing every forfeit, and a goodbye_wait of an hour was taken off every call's time.
_MOST: dict[str, float] = {
    "forfeit_days": 3650,
    "door_goodbye_wait": 60,
}


def _check_ranges(config: Config, where: str) -> None:
    names = {name: f"[{section}] {key}" for (section, key), name in _KEYS.items()}
    for name, least in _LEAST.items():
        value = getattr(config, name)
        if not value >= least:  # NaN too
            # As written: 'not -1.0' had been said of a whole number's -1.
            raise ConfigError(f"{where}{names[name]} must be at least {least:g}, not {value:g}")
        if not math.isfinite(value):
            raise ConfigError(f"{where}{names[name]} must be a finite number, not {value:g}")
        if value > _MOST.get(name, math.inf):
            raise ConfigError(f"{where}{names[name]} must be at most {_MOST[name]:g}, not {value:g}")


def _value(name: str, raw: str, where: str) -> object:
    kind = {f.name: f.type for f in fields(Config)}[name]
    try:
        return int(raw) if kind == "int" else float(raw) if kind == "float" else raw.strip()
    except ValueError:
        whole = kind == "int" and _is_number(raw)
        # '2.5' for a count had been told it was not a number.
        raise ConfigError(f"{where} must be a {'whole ' if whole else ''}number, not {raw!r}") from None


def _is_number(raw: str) -> bool:
    try:
        float(raw)
    except ValueError:
        return False
    return True


def _read_file(config: Config, path: Path) -> None:
    # No interpolation: a '%' in a value (a database password written %40) is the character, where
    # it had failed as 'cannot open the database', naming neither file nor key.
    parser = configparser.ConfigParser(inline_comment_prefixes=(";", "#"), interpolation=None)
    try:
        with open(path, encoding="utf-8") as fh:
            parser.read_file(fh)
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: not a text file in UTF-8 (byte {exc.start} cannot be read)") from None
    except configparser.MissingSectionHeaderError as exc:
        # Python's own words ('File contains no section headers') named no key and no remedy.
        raise ConfigError(f"{path}, line {exc.lineno}: {exc.line.strip()!r} comes before any [section] "
                          "heading; each key goes under its section's, like [server]") from None
    except configparser.ParsingError as exc:
        # One line, as every other message: Python's own ran over two, with a tab and a '\n'.
        lineno, shown = exc.errors[0] if exc.errors else (0, "''")
        line = ast.literal_eval(shown) if shown[:1] in "'\"" else shown  # configparser keeps it as repr()
        raise ConfigError(f"{path}, line {lineno}: {str(line).strip()!r} is not 'key = value'") from None
    except configparser.DuplicateOptionError as exc:
        raise ConfigError(f"{path}, line {exc.lineno}: [{exc.section}] {exc.option} is given twice") from None
    except configparser.DuplicateSectionError as exc:
        raise ConfigError(f"{path}, line {exc.lineno}: [{exc.section}] is given twice") from None
    except configparser.Error as exc:
        raise ConfigError(f"{path}: {exc}") from None
    for section in parser.sections():
        words = section.split()
        if len(words) == 2 and words[0].lower() == "bbs":
            member = _member(path, section, words[1], dict(parser.items(section)))
            if member.tag in config.bbses:
                raise ConfigError(f"{path}: the BBS tag {member.tag} has two sections")
            config.bbses[member.tag] = member
            continue
        if words and words[0].lower() == "bbs":
            raise ConfigError(f"{path}: [{section}] should be [bbs TAG]")
        if section.lower() not in _SECTIONS:
            # '[sever]' had been told its key was unknown, as if the key were the mistake.
            raise ConfigError(f"{path}: unknown section [{section}] (the sections are "
                              f"{', '.join(f'[{k}]' for k in _SECTIONS)} and [bbs TAG])")
        for key, raw in parser.items(section):
            # Sections as keys, whatever their case: '[Server]' had been refused.
            name = _KEYS.get((section.lower(), key))
            if name is None and (section.lower(), key) in _RETIRED:
                continue
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
        raise ConfigError(f"{path}: [server] port must be 1 to 65535, not {config.port}")
    if not 1 <= config.default_length <= LONGEST_MATCH:
        raise ConfigError(f"{path}: [game] default_length must be 1 to {LONGEST_MATCH}, not {config.default_length}")
    if not 0 <= config.rlogin_port <= 65535:
        raise ConfigError(f"{path}: [rlogin] port must be 0 (off) to 65535, not {config.rlogin_port}")
    config.show_board = config.show_board.lower()
    if config.show_board not in SHOW_BOARD:
        raise ConfigError(f"{path}: [rlogin] show_board is 'ambiguous' or 'always', not {config.show_board!r}")
    config.proxy_trusted = parse_networks(config.proxy_from, f"{path}: [server] proxy_from")
    config.rlogin_proxy_trusted = parse_networks(config.rlogin_proxy_from, f"{path}: [rlogin] proxy_from")
    if config.presence_ttl < 3:
        raise ConfigError(f"{path}: [session] presence_ttl is at least 3 seconds, not {config.presence_ttl:g}")


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
