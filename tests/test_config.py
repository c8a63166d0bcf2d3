"""door.cfg and the BGDOOR_* environment variables, read once at start-up; the database settings
reach the engine through the configuration."""

from __future__ import annotations

from pathlib import Path

import pytest

from bgdoor.app import open_service
from bgdoor.config import ENVIRONMENT, ConfigError, load_config


@pytest.fixture(autouse=True)
def _no_settings_from_outside(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for variable in ENVIRONMENT:
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.chdir(tmp_path)  # no door.cfg here


def test_the_database_settings_come_from_the_file_and_the_environment_wins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert (load_config(None).busy_timeout_ms, load_config(None).sqlite_synchronous) == (5000, "FULL")
    cfg = tmp_path / "door.cfg"
    cfg.write_text("[database]\nbusy_timeout_ms = 700\nsynchronous = normal\nwrite_patience = 1.5\n")
    config = load_config(cfg)
    assert (config.busy_timeout_ms, config.sqlite_synchronous, config.write_patience) == (700, "NORMAL", 1.5)
    monkeypatch.setenv("BGDOOR_BUSY_TIMEOUT_MS", "250")
    monkeypatch.setenv("BGDOOR_WRITE_PATIENCE", "0.5")
    config = load_config(cfg)
    assert (config.busy_timeout_ms, config.sqlite_synchronous, config.write_patience) == (250, "NORMAL", 0.5)
    assert load_config(None).busy_timeout_ms == 250  # with no door.cfg at all, too


def test_bad_settings_are_refused_by_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cfg = tmp_path / "door.cfg"
    cfg.write_text("[database]\nsynchronous = sometimes\n")
    with pytest.raises(ConfigError, match="synchronous"):
        load_config(cfg)
    monkeypatch.setenv("BGDOOR_BUSY_TIMEOUT_MS", "soon")
    with pytest.raises(ConfigError, match="BGDOOR_BUSY_TIMEOUT_MS must be a number"):
        load_config(None)
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(tmp_path / "missing.cfg")


def test_the_service_opens_with_the_configured_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BGDOOR_BUSY_TIMEOUT_MS", "1234")
    monkeypatch.setenv("BGDOOR_SQLITE_SYNCHRONOUS", "NORMAL")
    config = load_config(None)
    config.database_url = f"sqlite:///{tmp_path}/settings.db"
    with open_service(config) as svc, svc.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == 1234
        assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 1  # NORMAL
        assert svc.write_patience == config.write_patience


def test_an_old_door_cfg_with_a_retired_key_still_loads(tmp_path):
    cfg = tmp_path / "door.cfg"
    cfg.write_text("[game]\nforfeit_days = 9\ndefault_theme = classic\n")
    assert load_config(cfg).forfeit_days == 9


@pytest.mark.parametrize(
    ("section", "key", "raw"),
    [("session", "idle_timeout", "0"), ("server", "login_attempts", "0"), ("game", "forfeit_days", "-3"),
     ("server", "max_callers", "0"), ("door", "idle_timeout", "nan")],
)
def test_a_number_no_session_could_work_with_is_refused_by_name(tmp_path: Path, section: str, key: str,
                                                                 raw: str) -> None:
    """idle_timeout = 0 dropped every caller before they could type a handle ('Time to log in is
    up'), and login_attempts = 0 hung up at the first wrong password: both loaded silently."""
    cfg = tmp_path / "door.cfg"
    cfg.write_text(f"[{section}]\n{key} = {raw}\n")
    with pytest.raises(ConfigError, match=rf"\[{section}\] {key} must be at least"):
        load_config(cfg)


def test_a_config_file_that_is_not_utf8_text_says_so(tmp_path: Path) -> None:
    """A UTF-16 door.cfg was reported as 'cannot open the database'."""
    cfg = tmp_path / "door.cfg"
    cfg.write_text("[server]\nport = 2323\n", encoding="utf-16")
    with pytest.raises(ConfigError, match="not a text file in UTF-8"):
        load_config(cfg)


def test_config_messages_name_the_file_as_given_and_the_numbers_as_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A key before any section got Python's 'File contains no section headers'; '2.5' for a count
    was 'not a number'; 'forfeit_days = -1' was told 'not -1.0'; and the messages named the file
    three ways (as given, absolute, or not at all for 'synchronous')."""
    monkeypatch.chdir(tmp_path)
    cfg = Path("c.cfg")
    for text, said in [
        ("port = 5\n[server]\n", "c.cfg, line 1: 'port = 5' comes before any [section] heading"),
        ("[server]\nmax_callers = 2.5\n", "c.cfg: [server] max_callers must be a whole number, not '2.5'"),
        ("[server]\nmax_callers = lots\n", "c.cfg: [server] max_callers must be a number, not 'lots'"),
        ("[game]\nforfeit_days = -1\n", "c.cfg: [game] forfeit_days must be at least 0, not -1"),
        ("[session]\nidle_timeout = 0\n", "c.cfg: [session] idle_timeout must be at least 1, not 0"),
        ("[database]\nsynchronous = MAYBE\n", "c.cfg: [database] synchronous is one of"),
        ("[server]\nport 23\n", "c.cfg, line 2: 'port 23' is not 'key = value'"),
        ("[server]\nport = 23\nport = 24\n", "c.cfg, line 3: [server] port is given twice"),
        ("[game]\nforfeit_days = inf\n", "c.cfg: [game] forfeit_days must be a finite number, not inf"),
        ("[game]\nforfeit_days = 1e9\n", "c.cfg: [game] forfeit_days must be at most 3650, not 1e+09"),
        ("[door]\ngoodbye_wait = 7200\n", "c.cfg: [door] goodbye_wait must be at most 60, not 7200"),
        ("[sever]\nport = 23\n", "c.cfg: unknown section [sever] (the sections are [database], [door], [game]"),
        ("[server]\nport = 70000\n", "c.cfg: [server] port must be 1 to 65535, not 70000"),
        ("[rlogin]\nshow_board = never\n", "c.cfg: [rlogin] show_board is 'ambiguous' or 'always', not 'never'"),
    ]:
        cfg.write_text(text)
        with pytest.raises(ConfigError) as caught:
            load_config(cfg)
        assert str(caught.value).startswith(said), str(caught.value)


def test_a_percent_sign_in_a_value_is_the_character(tmp_path: Path) -> None:
    """A database password written with %40 failed as 'cannot open the database: '%' must be
    followed by '%' or '('', naming neither the file nor the key."""
    cfg = tmp_path / "door.cfg"
    cfg.write_text("[database]\nurl = postgresql+psycopg://u:p%40ss@localhost/db\n"
                   "[bbs DEMO]\nsecret = 100%sure\naddresses = 127.0.0.1\n")
    config = load_config(cfg)
    assert config.database_url == "postgresql+psycopg://u:p%40ss@localhost/db"
    assert config.bbses["DEMO"].secret == "100%sure"


def test_section_names_and_show_board_are_read_whatever_their_case(tmp_path: Path) -> None:
    """'[Server]' was refused as 'unknown key 'port' in [Server]', and 'show_board = Always' too."""
    cfg = tmp_path / "door.cfg"
    cfg.write_text("[Server]\nport = 2424\n[RLOGIN]\nshow_board = Always\n")
    config = load_config(cfg)
    assert config.port == 2424 and config.show_board == "always"


def test_the_log_names_the_database_opened(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           caplog: pytest.LogCaptureFixture) -> None:
    """'sqlite:///tmp/x/x.db' (three slashes) is tmp/x/x.db under the folder started in: three
    testers' servers opened an old database there, and the log said only 'listening on'."""
    import logging  # noqa: PLC0415

    from bgdoor.config import Config  # noqa: PLC0415
    from bgdoor.store import db  # noqa: PLC0415

    monkeypatch.chdir(tmp_path)
    with caplog.at_level(logging.INFO, logger="bgdoor"):
        open_service(Config(database_url="sqlite:///tmp/x.db")).close()
    assert f"database: SQLite file {tmp_path}/tmp/x.db" in caplog.text, caplog.text
    assert db.describe("sqlite:///tmp/y/../x.db") == f"SQLite file {tmp_path}/tmp/x.db"  # no '..' in the log
    assert db.describe("postgresql+psycopg://bbs:s3cret@db.example/bg") == "postgresql+psycopg://bbs:***@db.example/bg"
