"""The `bgdoor` command."""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys
import textwrap
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from bgdoor.config import Config, ConfigError, load_config
from bgdoor.rules import Position, PositionError, legal_plays
from bgdoor.ui.boardcmd import add_board_parser

if TYPE_CHECKING:
    from bgdoor.service import Service
    from bgdoor.service.sysop import Sysop
    from bgdoor.service.types import GameSummary


def _parse_dice(text: str) -> tuple[int, int]:
    text = text.strip().replace("-", "")
    if len(text) != 2 or not text.isdigit() or not all("1" <= c <= "6" for c in text):
        raise ValueError(f"dice are two digits from 1 to 6, like 31: {text!r}")
    return int(text[0]), int(text[1])


def cmd_plays(args: argparse.Namespace) -> int:
    if args.batch:
        out = sys.stdout
        for lineno, line in enumerate(sys.stdin, 1):
            fields = line.split()
            if not fields:
                continue
            try:
                if len(fields) != 3:
                    raise ValueError("expected POSITION_ID D1 D2")
                pos = Position.from_id(fields[0])
                dice = _parse_dice(fields[1] + fields[2])
            except (ValueError, PositionError) as exc:
                _say(f"bgdoor plays: line {lineno}: {exc}", err=True)
                return 2
            ids = sorted(p.position.id for p in legal_plays(pos, dice))
            out.write((" ".join(ids) if ids else "-") + "\n")
        return 0
    if args.position is None or not args.dice:
        _say("bgdoor plays: give POSITION_ID DICE, or --batch", err=True)
        return 2
    try:
        pos = Position.from_id(args.position)
        dice = _parse_dice("".join(args.dice))  # "31", "3-1" or "3 1"
    except (ValueError, PositionError) as exc:
        _say(f"bgdoor plays: {exc}", err=True)
        return 2
    for play in legal_plays(pos, dice):
        print(f"{play}\t{play.position.id}")
    return 0


def _setup_logging(verbose: bool = False) -> None:
    logging.basicConfig(
        level=logging.DEBUG if verbose else logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    # telnetlib3 is chatty about every negotiation, Alembic about its plugins and every schema
    # check; keep their warnings only.
    logging.getLogger("telnetlib3").setLevel(logging.WARNING)
    logging.getLogger("alembic").setLevel(logging.WARNING)


def _load(args: argparse.Namespace) -> Config:
    config = load_config(args.config)
    if getattr(args, "db", None):
        config.database_url = args.db
    return config


def _open_service(config: Config) -> Service:
    from bgdoor.app import open_service  # noqa: PLC0415 - keeps `bgdoor plays` light

    return open_service(config)


def cmd_serve(args: argparse.Namespace) -> int:
    _setup_logging(args.verbose)
    log = logging.getLogger("bgdoor")
    try:
        config = _load(args)
        service = _open_service(config)
    except ConfigError as exc:
        print(f"bgdoor serve: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # noqa: BLE001 - a ServiceError, or a URL SQLAlchemy cannot use
        print(f"bgdoor serve: cannot open the database: {exc}", file=sys.stderr)
        return 2
    if args.host is not None:
        config.host = args.host
    if args.port is not None:
        config.port = args.port
    if args.rlogin_port is not None:
        config.rlogin_port = args.rlogin_port

    async def run() -> None:
        from bgdoor.app import running  # noqa: PLC0415 - only this command needs it
        from bgdoor.transport.rlogin import RLoginServer  # noqa: PLC0415 - only this command needs it
        from bgdoor.transport.telnet import TelnetDoorServer  # noqa: PLC0415 - only this command needs it

        async with running(config, service) as runtime:
            server = TelnetDoorServer(runtime)
            try:
                await server.start()
            except OSError as exc:
                log.error("cannot listen on %s:%s: %s", config.host, config.port, exc.strerror)
                raise SystemExit(2) from None
            rlogin = None
            if config.rlogin_port:
                if not config.bbses:
                    log.warning("RLogin is on but door.cfg has no [bbs TAG] section: every caller will be refused")
                # One count of callers for both, so the caps hold across telnet and RLogin together.
                rlogin = RLoginServer(runtime, lines=server)
                try:
                    await rlogin.start()
                except OSError as exc:
                    where = f"{config.rlogin_host}:{config.rlogin_port}"
                    log.error("cannot listen for RLogin on %s: %s", where, exc.strerror)
                    await server.shutdown()
                    raise SystemExit(2) from None
            stop = asyncio.Event()
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGINT, signal.SIGTERM):
                try:
                    loop.add_signal_handler(sig, stop.set)
                except (NotImplementedError, RuntimeError):
                    pass
            if args.ready_file:
                if rlogin is not None:
                    Path(args.ready_file + ".rlogin").write_text(str(rlogin.port))
                Path(args.ready_file).write_text(str(server.port))
            await stop.wait()
            log.info("shutting down")
            if rlogin is not None:
                await rlogin.shutdown()
            await server.shutdown()

    asyncio.run(run())
    service.close()
    return 0


def _unread(args: argparse.Namespace) -> Config:
    """The settings the door's log is found by when door.cfg cannot be read: beside --db's SQLite
    file, else beside door.cfg (the defaults had put it in data/ under the folder the BBS started
    the door in, a folder made for it)."""
    config = Config()
    config.database_url = args.db or ""
    config.source = str(Path(args.config or "door.cfg").resolve())
    return config


def cmd_door(args: argparse.Namespace) -> int:
    from bgdoor.transport.door import callers_terminal  # noqa: PLC0415 - only this command needs it
    from bgdoor.transport.dropfile import DropFileError, read_dropfile  # noqa: PLC0415 - only this command needs it

    try:
        info = read_dropfile(args.dropfile, args.node)
    except DropFileError as exc:
        if not callers_terminal(2):
            # On the caller's own terminal the line would show them the BBS's paths, cut at the
            # edge, over a message saying only the sysop can see why: there, the log has it.
            print(f"bgdoor door: {exc}", file=sys.stderr)
        from bgdoor.transport.door import drop_file_refused  # noqa: PLC0415 - only this command needs it

        try:
            config = _load(args)
        except ConfigError:
            config = _unread(args)
        drop_file_refused(str(exc), config, args.log)
        return 2
    # The caller's connection first: nothing else may take its descriptor number.
    from bgdoor.transport.door import run_door  # noqa: PLC0415 - only this command needs it
    from bgdoor.transport.door_io import open_link  # noqa: PLC0415 - only this command needs it

    link = open_link(info, args.local)
    try:
        config = _load(args)
    except ConfigError as exc:
        # As a drop file that cannot be read: the caller had been shown the sysop's error, paths
        # and all, and the log had nothing.
        if not callers_terminal(2):
            print(f"bgdoor door: {exc}", file=sys.stderr)
        from bgdoor.transport.door import drop_file_refused  # noqa: PLC0415 - only this command needs it

        drop_file_refused(str(exc), _unread(args), args.log, "its settings (door.cfg) could not be read",
                          "cannot read door.cfg")
        link.close()
        return 2
    from bgdoor.app import running  # noqa: PLC0415 - only this command needs it

    return run_door(info, link, config, running, node=args.node, log_file=args.log)


# ---------------------------------------------------------------- sysop tools
# sysop, bulletin and export: the service layer is imported inside each command.


def _open_for(args: argparse.Namespace, name: str) -> tuple[Config, Service] | None:
    """The configuration and service the command runs on, or None after a one-line error.

    Only serve and door make a database: a mistyped path here would have made an empty one and
    reported no players and no games."""
    from bgdoor.store.db import sqlite_path  # noqa: PLC0415 - keeps `bgdoor plays` light

    try:
        config = _load(args)
        path = sqlite_path(config.database_url)
        if path is not None and not path.exists():
            _say(f"bgdoor {name}: there is no database at {path.absolute()} (bgdoor serve or bgdoor door "
                 "makes one); check --db or door.cfg's [database] url", err=True)
            return None
        service = _open_service(config)
        if path is not None:
            _warn_if_no_players(name, service, path)
        return config, service
    except ConfigError as exc:
        _say(f"bgdoor {name}: {exc}", err=True)
    except Exception as exc:  # noqa: BLE001 - a ServiceError, or a URL SQLAlchemy cannot use
        _say(f"bgdoor {name}: cannot open the database: {exc}", err=True)
    return None


def _warn_if_no_players(name: str, service: Service, path: Path) -> None:
    """A database that serve or a door has run on holds the computer players at least.  One with
    no players at all is most likely a plain copy of a live one: its newest changes are still in
    the -wal file beside the original, and every command here said the board was empty."""
    from bgdoor.service.sysop import Sysop  # noqa: PLC0415 - only these commands need it

    try:
        if Sysop(service).any_players():
            return
    except Exception:  # noqa: BLE001 - the command itself says what is wrong with the database
        return
    _say(f"bgdoor {name}: {path} has no players at all, not even the computer's; if it is a copy of a "
         f"running server's database, copy it with: sqlite3 LIVE.db \".backup {path.name}\" "
         "(a plain copy leaves out what is still in the -wal file)", err=True)


def _game_id(text: str) -> int:
    """A game number as an argument: past what the database holds it had ended in a traceback."""
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a game number is a whole number, not {text!r}") from None
    if not 1 <= number < 2**63:
        raise argparse.ArgumentTypeError(f"there is no game {text}")
    return number


def _days(text: str) -> float:
    """A number of days as an argument: nan, inf and 1e6 had ended in tracebacks."""
    try:
        days = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a number of days, not {text!r}") from None
    if not 0 <= days <= 36500:  # NaN too
        raise argparse.ArgumentTypeError(f"a number of days from 0 to 36500, not {text!r}")
    return days


def _when(moment: datetime | None, form: str = "%Y-%m-%d %H:%M") -> str:
    return "-" if moment is None else moment.astimezone(UTC).strftime(form)


def _table(headers: list[str], rows: list[list[str]], right: tuple[int, ...] = ()) -> str:
    """A plain text table: columns two spaces apart, numbers (columns in `right`) right-aligned.
    On a terminal, past 79 columns the last column wraps under itself (a game's event with long
    handles had run to a hundred columns); into a pipe or a file each row stays one line, as the
    README promises, for grep and sort ('white wins 3 points (backgammon,' had left 'resign)' on a
    line of its own)."""
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(headers)]
    start = sum(widths[:-1]) + 2 * (len(widths) - 1)  # where the last column begins
    room = 79 - start if _on_terminal(sys.stdout) else widths[-1]
    if widths[-1] > room >= 20:
        widths[-1] = max(len(headers[-1]), room)
    else:
        room = widths[-1]

    def line(cells: list[str]) -> str:
        *first, last = cells
        parts = textwrap.wrap(last, room, break_on_hyphens=False) or [""]
        cols = enumerate(zip([*first, parts[0]], widths, strict=True))
        head = "  ".join(c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in cols).rstrip()
        return "\n".join([head, *(" " * start + part for part in parts[1:])])

    return "\n".join([line(headers), line(["-" * w for w in widths])] + [line(r) for r in rows])


def _port(text: str) -> int:
    """A port number for argparse: 99999 had ended serve in a traceback from the socket's bind."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a port is a number from 0 to 65535, not {text!r}") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"a port is a number from 0 to 65535, not {port}")
    return port


def _on_terminal(out: TextIO) -> bool:
    return out.isatty()


def _say(text: str, *, err: bool = False) -> None:
    """A message for the sysop, each line broken between words within 80 columns on a terminal
    (one of 170 had wrapped mid-word there); a path longer than a line stays whole.  Into a pipe
    or a file each line stays one line, for grep and cron's mail."""
    out = sys.stderr if err else sys.stdout
    wrapped = _on_terminal(out)
    for line in text.splitlines() or [""]:
        if wrapped and len(line) > 79:
            lead = " " * (len(line) - len(line.lstrip()))
            line = textwrap.fill(line.strip(), 79, initial_indent=lead, subsequent_indent=lead + "    ",
                                 break_long_words=False, break_on_hyphens=False)
        print(line, file=out)


def _confirm(question: str) -> bool:
    print(f"{question} [y/N] ", end="", flush=True)
    answer = sys.stdin.readline()
    if not sys.stdin.isatty():
        print()  # the answer was not echoed: keep the next line off the prompt's
    return answer.strip().lower() in ("y", "yes")


def _indent(text: str) -> str:
    return "\n".join(f"  {line}" for line in text.splitlines())


def _change(args: argparse.Namespace, preview: Callable[[], str], act: Callable[[], str]) -> int:
    """Show what will change and ask, unless --yes; then change it and say what changed.
    What is so already is said, with no question, and is not a failure."""
    from bgdoor.service.sysop import NothingToChange  # noqa: PLC0415 - only these commands need it

    try:
        if not args.yes:
            plan = preview()  # refusals and unknown names come out here, before any question
            print("This will change:")
            _say(_indent(plan))
            if not _confirm("Go ahead?"):
                print("Nothing was changed.")
                return 1
        _say(act())
    except NothingToChange as exc:
        _say(f"{exc}.")
        return 0
    return 0


def _sysop_players(args: argparse.Namespace, sysop: Sysop) -> int:
    rows = sysop.players()
    table = [
        [
            str(p.id),
            p.handle,
            f"{p.rating:.1f}",
            f"{p.wins}-{p.losses}",
            str(p.experience),
            _when(p.created, "%Y-%m-%d"),  # the day: with its time, a 16-letter handle ran past 80 columns
            _when(p.last_seen),
            p.login,
        ]
        for p in rows
    ]
    print(
        _table(
            ["ID", "Handle", "Rating", "W-L", "Exp", "Created", "Last login (UTC)", "Login"],
            table,
            right=(0, 2, 3, 4),
        )
    )
    print(f"{len(rows)} player{'' if len(rows) == 1 else 's'}")
    return 0


def _game_rows(games: list[GameSummary]) -> str:
    """The games, the player to act marked '*' as callers' lists mark them, the match length with
    the score: a 'To act' column that named the player again, and a 'Len' column, had taken a
    row with two 16-letter handles to 100 columns."""

    def seat(name: str | None, g: GameSummary) -> str:
        return ("*" if g.waits_for(name) else " ") + (name or "(open seat)")

    table = [
        [
            str(g.id),
            g.status,
            seat(g.white, g),
            seat(g.black, g),
            f"{g.score[0]}-{g.score[1]}" + (f"/{g.length}" if g.length else ""),
            _when(g.updated),
        ]
        for g in games
    ]
    return _table(["ID", "Status", " White", " Black", "Score", "Last change (UTC)"], table, right=(0,))


def _sysop_games(args: argparse.Namespace, sysop: Sysop) -> int:
    games = sysop.games(status=args.status, player=args.player, stale_days=args.stale)
    if not games:
        print("No games.")
        return 0
    print(_game_rows(games))
    acting = " (* to act)" if any(g.waits_for(g.white) or g.waits_for(g.black) for g in games) else ""
    print(f"{len(games)} game{'' if len(games) == 1 else 's'}{acting}")
    return 0


SYSTEM = "(system)"  # who made an event no player made


def _sysop_game(args: argparse.Namespace, sysop: Sysop) -> int:
    from bgdoor.ui.news import a_match  # noqa: PLC0415 - keeps `bgdoor plays` light

    record = sysop.game(args.game_id)
    g = record.summary
    facts = [
        ("Game", f"{g.id}, {a_match(g.length)}, {g.status}"),
        ("White", g.white or "(open seat)"),
        ("Black", g.black or "(open seat)"),
        ("Score", f"{g.score[0]}-{g.score[1]} (white-black), cube {record.cube}"),
        ("Phase", record.phase + (f", {g.turn} to act" if g.turn else "")),
        ("Winner", record.winner or "-"),
        ("Started", _when(record.created) + " UTC"),
        ("Last activity", _when(g.updated) + " UTC"),
        ("Position ID", record.position_id),
        ("Match ID", record.match_id),
    ]
    for label, value in facts:
        print(f"{label + ':':<15}{value}")
    print()
    if not record.events:
        print("No events recorded yet.")
        return 0
    # No player: a forfeit, whether the door's own sweep, forfeit-stale or delete-player made it
    # (one event, however made), and the win it gives.  '(door)' read as if the door had played.
    table = [
        [str(e.seq), e.when.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S"), e.player or SYSTEM, e.color or "-", e.text]
        for e in record.events
    ]
    print(_table(["Seq", "When (UTC)", "Player", "Side", "Event"], table, right=(0,)))
    return 0


def _sysop_password(args: argparse.Namespace, sysop: Sysop) -> int:
    return _change(
        args,
        lambda: sysop.set_password(args.handle, args.password, dry_run=True),
        lambda: sysop.set_password(args.handle, args.password),
    )


def _sysop_rename(args: argparse.Namespace, sysop: Sysop) -> int:
    return _change(
        args, lambda: sysop.rename(args.old, args.new, dry_run=True), lambda: sysop.rename(args.old, args.new)
    )


def _sysop_delete_player(args: argparse.Namespace, sysop: Sysop) -> int:
    from bgdoor.service.sysop import PlayerInGames  # noqa: PLC0415 - only this command needs it

    try:
        return _change(
            args,
            lambda: sysop.delete_player(args.handle, force=args.force, dry_run=True),
            lambda: sysop.delete_player(args.handle, force=args.force),
        )
    except PlayerInGames as exc:
        _say(
            f"bgdoor sysop: {exc}; nothing was changed. With --force, their active games are forfeited "
            "(the opponent wins) and games waiting for an opponent are deleted",
            err=True,
        )
        return 1


def _sysop_delete_game(args: argparse.Namespace, sysop: Sysop) -> int:
    return _change(args, lambda: sysop.delete_game(args.game_id, dry_run=True), lambda: sysop.delete_game(args.game_id))


def _sysop_forfeit_stale(args: argparse.Namespace, sysop: Sysop, config: Config) -> int:
    if args.days is not None:
        days = args.days  # 0 to 36500 (_days): 0 forfeits every game waiting for a move
    else:
        days = config.forfeit_days
        if days <= 0:
            where = f"in {config.source}" if config.source else "by default"
            _say(f"bgdoor sysop: forfeit_days is 0 {where} (never forfeit); give --days N", err=True)
            return 2
    from bgdoor.service.sysop import days_text  # noqa: PLC0415 - only these commands need it

    stale = sysop.stale_games(days)
    if not stale:
        waited = f"has waited {days_text(days)}" if days else "is waiting"
        print(f"No game {waited} for a move; nothing to forfeit.")
        return 0
    if not args.yes:
        # One game, or a threshold of 1 day, read 'These games have waited 1 days'.
        games = "This game" if len(stale) == 1 else "These games"
        if days:
            waited = f"{'has' if len(stale) == 1 else 'have'} waited {days_text(days)} or more"
        else:
            waited = "is waiting" if len(stale) == 1 else "are waiting"
        print(f"{games} {waited} for the player to act:")
        print(_game_rows(stale))
        if not _confirm(
            f"Forfeit {'it' if len(stale) == 1 else f'all {len(stale)}'}? The player to act loses the match."
        ):
            print("Nothing was changed.")
            return 1
    done = sysop.forfeit_stale(days)
    _say(done or "Nothing was forfeited: the games moved on in the meantime.")
    return 0


def _sysop_bbses(args: argparse.Namespace, sysop: Sysop, config: Config) -> int:
    rows = sysop.member_bbses({tag: m.name for tag, m in config.bbses.items()})
    if not rows:
        print("No member BBSes: door.cfg has no [bbs TAG] section and no BBS has sent a caller.")
        return 0
    # 80 columns: a name door.cfg allows (40) is cut, and a suspension's reason goes under the
    # table, wrapped (a row with both had been 174 columns).
    table = [
        [
            r.tag,
            (name if len(name := r.name or "(not in door.cfg)") <= 24 else name[:22] + ".."),
            str(r.players),
            _when(r.last_activity),
            "suspended" if r.suspended else "admitted",
        ]
        for r in rows
    ]
    print(_table(["Tag", "Name", "Players", "Last activity (UTC)", "State"], table, right=(2,)))
    print(f"{len(rows)} member BBS{'' if len(rows) == 1 else 'es'}")
    for r in rows:
        if r.suspended and r.reason:
            print(textwrap.fill(f"{r.tag} is suspended: {r.reason}", 79, subsequent_indent="  "))
    # Each board's players, as README says the command lists them (it had shown a count alone).
    for r in rows:
        if not r.roster:
            continue
        print(f"\nPlayers of {r.tag}:")
        players = [
            # An alias is the board's (up to 40 characters); one the service took with a control
            # character in it is shown escaped, not sent to the sysop's terminal.
            [m.handle, m.alias if m.alias.isprintable() else ascii(m.alias)[1:-1][:40], _when(m.last_seen)]
            for m in r.roster
        ]
        print(_table(["Handle", f"Alias on {r.tag}", "Last activity (UTC)"], players))
    return 0


def _sysop_suspend_bbs(args: argparse.Namespace, sysop: Sysop, config: Config, suspend: bool) -> int:
    reason = getattr(args, "reason", "") or ""
    tag = str(args.tag).strip().upper()
    if not tag:
        _say("bgdoor sysop: a BBS tag is 1 to 8 characters", err=True)
        return 2  # a bad argument, as README's table of exit statuses says
    known = {r.tag for r in sysop.member_bbses({t: m.name for t, m in config.bbses.items()})}
    if tag not in known:
        # "BBS NOSUCH is already admitted" said of a board nobody has heard of.
        listed = ", ".join(sorted(known)) or "none"
        _say(f"bgdoor sysop: no member BBS {tag}: door.cfg has no [bbs {tag}] section and no caller came "
             f"from it (member BBSes: {listed})", err=True)
        return 2
    return _change(
        args,
        lambda: sysop.suspend_bbs(args.tag, reason, suspend=suspend, dry_run=True),
        lambda: sysop.suspend_bbs(args.tag, reason, suspend=suspend),
    )


def cmd_sysop(args: argparse.Namespace) -> int:
    from bgdoor.service import NotFound, ServiceError  # noqa: PLC0415 - keeps `bgdoor plays` light
    from bgdoor.service.sysop import Sysop  # noqa: PLC0415 - only this command needs it

    opened = _open_for(args, "sysop")
    if opened is None:
        return 2
    config, service = opened
    sysop = Sysop(service)
    try:
        if args.action == "forfeit-stale":
            return _sysop_forfeit_stale(args, sysop, config)
        if args.action == "bbses":
            return _sysop_bbses(args, sysop, config)
        if args.action in ("suspend-bbs", "resume-bbs"):
            return _sysop_suspend_bbs(args, sysop, config, args.action == "suspend-bbs")
        return int(args.action_func(args, sysop))
    except NotFound as exc:
        _say(f"bgdoor sysop: {exc}", err=True)
        return 2
    except ServiceError as exc:
        _say(f"bgdoor sysop: {exc}", err=True)
        return 1
    finally:
        service.close()


def cmd_bulletin(args: argparse.Namespace) -> int:
    from bgdoor.records.bulletin import (  # noqa: PLC0415 - only this command needs it
        NO_GAMES,
        ROWS_PER_SCREEN,
        TITLE_WIDTH,
        render_bulletin,
        write_atomically,
    )
    from bgdoor.service import ServiceError  # noqa: PLC0415 - only this command needs it

    top = ROWS_PER_SCREEN if args.top is None else args.top
    if top < 1:
        _say("bgdoor bulletin: --top is at least 1", err=True)
        return 2
    opened = _open_for(args, "bulletin")
    if opened is None:
        return 2
    config, service = opened
    title = args.title
    board: str | None = None
    empty = NO_GAMES
    if args.bbs is not None:
        board = args.bbs.strip().upper()
        member = config.bbses.get(board)
        if member is None:
            known = ", ".join(sorted(config.bbses)) or "none"
            _say(f"bgdoor bulletin: door.cfg has no [bbs {board}] section (member BBSes: {known})", err=True)
            service.close()
            return 2
        title = f"{title}: {member.name}"
        # Said of this board, as R)ankings says it: other boards' players may have been rated.
        empty = f"No player of {member.name} has finished a match yet."
    if len(title) > TITLE_WIDTH:
        # Cut, it ended mid-word with no warning; two lines would take a player's row.
        why = f"bgdoor bulletin: --title is {len(args.title)} characters"
        if board is None:
            _say(f"{why}; the bulletin's title line holds at most {TITLE_WIDTH}", err=True)
        else:
            room = TITLE_WIDTH - (len(title) - len(args.title))
            _say(f"{why}; with --bbs {board} the title line ends in ': {config.bbses[board].name}', so --title "
                 f"may be at most {room} characters (the line holds {TITLE_WIDTH})", err=True)
        service.close()
        return 2
    try:
        # Everyone rated: the footer counts those past --top ('and 12 more players'); it had
        # said '3 players' of a board with dozens.
        rows = service.rankings(limit=None, board=board)
    except ServiceError as exc:
        _say(f"bgdoor bulletin: {exc}", err=True)
        return 1
    finally:
        service.close()
    screens = -(-top // ROWS_PER_SCREEN)  # enough 24-line screens for --top rows
    data = render_bulletin(rows, args.charset, title=title, screens=screens, empty=empty, top=top)
    if args.output is None:
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return 0
    try:
        write_atomically(args.output, data)
    except OSError as exc:
        _say(f"bgdoor bulletin: cannot write {args.output}: {exc.strerror or exc}", err=True)
        return 1
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from bgdoor.records.bulletin import write_atomically  # noqa: PLC0415 - only this command needs it
    from bgdoor.records.mat import export_mat  # noqa: PLC0415 - only this command needs it
    from bgdoor.service import NotFound, ServiceError  # noqa: PLC0415 - only this command needs it
    from bgdoor.service.sysop import Sysop  # noqa: PLC0415 - only this command needs it

    opened = _open_for(args, "export")
    if opened is None:
        return 2
    _, service = opened
    try:
        match = Sysop(service).match_record(args.game_id)
    except NotFound as exc:
        _say(f"bgdoor export: {exc}", err=True)
        return 2
    except ServiceError as exc:
        _say(f"bgdoor export: {exc}", err=True)
        return 1
    finally:
        service.close()
    text = export_mat(match.white, match.black, match.length, match.events, date=match.created, notes=match.notes)
    if args.output is None:
        sys.stdout.write(text)
        return 0
    try:
        write_atomically(args.output, text.encode("utf-8"))
    except OSError as exc:
        _say(f"bgdoor export: cannot write {args.output}: {exc.strerror or exc}", err=True)
        return 1
    return 0


def _where(default: object = None) -> argparse.ArgumentParser:
    """A parent parser: the --config and --db every command that opens the database takes."""
    p = argparse.ArgumentParser(add_help=False)
    p.add_argument("--config", default=default, help="configuration file (default: door.cfg if present)")
    p.add_argument(
        "--db", default=default, help="SQLAlchemy database URL (default: door.cfg's, else sqlite:///data/bgdoor.db)"
    )
    return p


def _add_sysop_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    where = _where()
    # Accepted after the action too; SUPPRESS keeps an action's parser from resetting them.
    after = _where(argparse.SUPPRESS)

    def destructive(p: argparse.ArgumentParser) -> None:
        p.add_argument("-y", "--yes", action="store_true", help="do not ask for confirmation")

    p = sub.add_parser(
        "sysop", parents=[where], help="look after players and games", description="Look after players and games."
    )
    p.set_defaults(func=cmd_sysop)
    actions = p.add_subparsers(dest="action", required=True, metavar="ACTION")

    a = actions.add_parser("players", parents=[after], help="list the players")
    a.set_defaults(action_func=_sysop_players)

    a = actions.add_parser("games", parents=[after], help="list games, most recently active first")
    a.add_argument("--status", choices=["open", "active", "finished", "abandoned"], help="only games in this state")
    a.add_argument("--player", metavar="HANDLE", help="only games this player sits in")
    a.add_argument("--stale", type=_days, metavar="DAYS", help="only unfinished games with no activity for DAYS days")
    a.set_defaults(action_func=_sysop_games)

    a = actions.add_parser("game", parents=[after], help="show one game and its record")
    a.add_argument("game_id", type=_game_id, metavar="ID")
    a.set_defaults(action_func=_sysop_game)

    a = actions.add_parser("password", parents=[after], help="set a player's password (generated unless given)")
    a.add_argument("handle", metavar="HANDLE")
    a.add_argument("--password", help="the new password (default: generate one and print it once)")
    destructive(a)
    a.set_defaults(action_func=_sysop_password)

    a = actions.add_parser("rename", parents=[after], help="change a player's handle")
    a.add_argument("old", metavar="OLD")
    a.add_argument("new", metavar="NEW")
    destructive(a)
    a.set_defaults(action_func=_sysop_rename)

    a = actions.add_parser("delete-player", parents=[after], help="delete a player")
    a.add_argument("handle", metavar="HANDLE")
    a.add_argument("--force", action="store_true", help="forfeit their active games and delete their waiting ones")
    destructive(a)
    a.set_defaults(action_func=_sysop_delete_player)

    a = actions.add_parser("delete-game", parents=[after], help="delete a game and its record")
    a.add_argument("game_id", type=_game_id, metavar="ID")
    destructive(a)
    a.set_defaults(action_func=_sysop_delete_game)

    a = actions.add_parser("forfeit-stale", parents=[after], help="forfeit games that have waited DAYS days for a move")
    a.add_argument("--days", type=_days, help="days without a move (default: door.cfg's forfeit_days)")
    destructive(a)

    actions.add_parser("bbses", parents=[after], help="list the member BBSes, their players and last activity")

    a = actions.add_parser("suspend-bbs", parents=[after], help="refuse a member BBS's callers (their games stay)")
    a.add_argument("tag", metavar="TAG")
    a.add_argument("--reason", default="", help="shown to its callers when they are refused")
    destructive(a)

    a = actions.add_parser("resume-bbs", parents=[after], help="let a suspended member BBS's callers in again")
    a.add_argument("tag", metavar="TAG")
    destructive(a)

    p = sub.add_parser("bulletin", parents=[where], help="write the top players as an ANSI bulletin for the BBS")
    p.add_argument("-o", "--output", metavar="FILE", help="replace FILE atomically (default: standard output)")
    p.add_argument(
        "--charset", choices=["cp437", "utf8", "ascii"], default="cp437", help="the BBS's character set (default cp437)"
    )
    p.add_argument("--top", type=int, help="how many players (default: one screen's worth, 17)")
    p.add_argument("--title", default="Backgammon Rankings", help="the title line")
    p.add_argument("--bbs", metavar="TAG", help="only the players of this member BBS (a [bbs TAG] of door.cfg)")
    p.set_defaults(func=cmd_bulletin)

    p = sub.add_parser("export", parents=[where], help="write a match in the Jellyfish .mat format")
    p.add_argument("game_id", type=_game_id, metavar="GAME_ID")
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE (default: standard output)")
    p.set_defaults(func=cmd_export)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="bgdoor", description="A backgammon door for bulletin-board systems.")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("plays", help="list the legal plays of a roll in a position")
    p.add_argument("position", nargs="?", help="GNU Backgammon Position ID")
    p.add_argument("dice", nargs="*", help="the roll, like 31 or 3 1")
    p.add_argument("--batch", action="store_true", help="read 'POSITION_ID D1 D2' lines from stdin")
    p.set_defaults(func=cmd_plays)

    add_board_parser(sub)

    where = _where()
    p = sub.add_parser("serve", parents=[where], help="run the telnet server")
    p.add_argument("--host", help="address to listen on (default from door.cfg: all interfaces)")
    p.add_argument("--port", type=_port, help="port to listen on (default from door.cfg: 2323)")
    p.add_argument(
        "--rlogin-port", type=_port, help="port for member BBSes' RLogin callers (default from door.cfg; 0 is off)"
    )
    p.add_argument("--ready-file", help=argparse.SUPPRESS)  # tests learn the port from it
    p.add_argument("-v", "--verbose", action="store_true", help="log debugging detail")
    p.set_defaults(func=cmd_serve)

    p = sub.add_parser("door", parents=[where], help="play one BBS caller, as a door")
    p.add_argument("--dropfile", required=True, help="DOOR32.SYS, DOOR.SYS, DORINFOx.DEF or CHAIN.TXT")
    p.add_argument("--node", type=int, help="BBS node number, where the drop file does not say it or says it wrong")
    p.add_argument("--local", action="store_true", help="the sysop plays on this console")
    p.add_argument(
        "--log",
        help="log file (default: door.log beside the SQLite database, else beside the configuration file); "
        "the screen is the caller's",
    )
    p.set_defaults(func=cmd_door)

    _add_sysop_parsers(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except BrokenPipeError:
        # A reader like `head` went away; that is not an error of ours.
        sys.stderr.close()
        return 0
