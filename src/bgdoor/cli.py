"""The `bgdoor` command."""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from bgdoor.config import Config, ConfigError, load_config
from bgdoor.rules import Position, PositionError, legal_plays

if TYPE_CHECKING:
    from bgdoor.service import Service


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
                print(f"bgdoor plays: line {lineno}: {exc}", file=sys.stderr)
                return 2
            ids = sorted(p.position.id for p in legal_plays(pos, dice))
            out.write((" ".join(ids) if ids else "-") + "\n")
        return 0
    if args.position is None or args.dice is None:
        print("bgdoor plays: give POSITION_ID DICE, or --batch", file=sys.stderr)
        return 2
    try:
        pos = Position.from_id(args.position)
        dice = _parse_dice(args.dice)
    except (ValueError, PositionError) as exc:
        print(f"bgdoor plays: {exc}", file=sys.stderr)
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
    # telnetlib3 is chatty about every negotiation; keep its warnings only.
    logging.getLogger("telnetlib3").setLevel(logging.WARNING)


def _load(args: argparse.Namespace) -> Config:
    config = load_config(args.config)
    if getattr(args, "db", None):
        config.database_url = args.db
    return config


def _open_service(config: Config) -> Service:
    from bgdoor.service import Service  # noqa: PLC0415 - keeps `bgdoor plays` light

    return Service(config.database_url)


def _make_bot(service: Service) -> object | None:
    try:
        from bgdoor.bot.runner import BotRunner  # noqa: PLC0415 - the bot is optional
    except ImportError:
        return None
    return BotRunner(service)


def cmd_serve(args: argparse.Namespace) -> int:
    _setup_logging(args.verbose)
    log = logging.getLogger("bgdoor")
    try:
        config = _load(args)
        service = _open_service(config)
    except ConfigError as exc:
        print(f"bgdoor serve: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # a ServiceError, or a URL SQLAlchemy cannot use
        print(f"bgdoor serve: cannot open the database: {exc}", file=sys.stderr)
        return 2
    if args.host is not None:
        config.host = args.host
    if args.port is not None:
        config.port = args.port

    async def run() -> None:
        from bgdoor.transport.telnet import TelnetDoorServer  # noqa: PLC0415
        from bgdoor.ui.runtime import Runtime  # noqa: PLC0415

        bot = _make_bot(service)
        runtime = Runtime(service, config, bot=bot)
        if bot is not None:
            bot.start(runtime)
        server = TelnetDoorServer(runtime)
        try:
            await server.start()
        except OSError as exc:
            log.error("cannot listen on %s:%s: %s", config.host, config.port, exc.strerror)
            raise SystemExit(2) from None
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            try:
                loop.add_signal_handler(sig, stop.set)
            except (NotImplementedError, RuntimeError):
                pass
        if args.ready_file:
            Path(args.ready_file).write_text(str(server.port))
        forfeits = asyncio.ensure_future(_forfeit_loop(runtime, config, log))
        await stop.wait()
        forfeits.cancel()
        log.info("shutting down")
        await server.close()
        if bot is not None:
            await bot.stop()

    asyncio.run(run())
    service.close()
    return 0


def cmd_door(args: argparse.Namespace) -> int:
    from bgdoor.transport.dropfile import DropFileError, read_dropfile  # noqa: PLC0415

    try:
        info = read_dropfile(args.dropfile)
    except DropFileError as exc:
        print(f"bgdoor door: {exc}", file=sys.stderr)
        return 2
    # The caller's connection first: nothing else may take its descriptor number.
    from bgdoor.transport.door import run_door  # noqa: PLC0415
    from bgdoor.transport.door_io import open_link  # noqa: PLC0415

    link = open_link(info, args.local)
    try:
        config = _load(args)
    except ConfigError as exc:
        link.close()
        print(f"bgdoor door: {exc}", file=sys.stderr)
        return 2
    return run_door(info, link, config, node=args.node, log_file=args.log)


async def _forfeit_loop(runtime: object, config: Config, log: logging.Logger) -> None:
    """Forfeit games left too long, once at start and then hourly."""
    if config.forfeit_days <= 0:
        return
    while True:
        try:
            ids = await runtime.service.forfeit_stale(config.forfeit_days)  # type: ignore[attr-defined]
            for game_id in ids:
                log.info("game %s forfeited: no move for %s days", game_id, config.forfeit_days)
                runtime.notify(game_id)  # type: ignore[attr-defined]
        except Exception:
            log.exception("forfeiting stale games failed")
        await asyncio.sleep(3600)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="bgdoor", description="A backgammon door for bulletin-board systems.")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("plays", help="list the legal plays of a roll in a position")
    p.add_argument("position", nargs="?", help="GNU Backgammon Position ID")
    p.add_argument("dice", nargs="?", help="the roll, like 31")
    p.add_argument("--batch", action="store_true", help="read 'POSITION_ID D1 D2' lines from stdin")
    p.set_defaults(func=cmd_plays)

    from bgdoor.ui.boardcmd import add_board_parser  # noqa: PLC0415

    add_board_parser(sub)

    p = sub.add_parser("serve", help="run the telnet server")
    p.add_argument("--config", help="configuration file (default: door.cfg if present)")
    p.add_argument("--host", help="address to listen on (default from door.cfg: all interfaces)")
    p.add_argument("--port", type=int, help="port to listen on (default from door.cfg: 2323)")
    p.add_argument("--db", help="SQLAlchemy database URL (default: sqlite:///data/bgdoor.db)")
    p.add_argument("--ready-file", help=argparse.SUPPRESS)  # tests learn the port from it
    p.add_argument("-v", "--verbose", action="store_true", help="log debugging detail")
    p.set_defaults(func=cmd_serve)

    p = sub.add_parser("door", help="play one BBS caller, as a door")
    p.add_argument("--dropfile", required=True, help="DOOR32.SYS, DOOR.SYS, DORINFOx.DEF or CHAIN.TXT")
    p.add_argument("--config", help="configuration file (default: door.cfg if present)")
    p.add_argument("--db", help="SQLAlchemy database URL (default: sqlite:///data/bgdoor.db)")
    p.add_argument("--node", type=int, help="BBS node number, where the drop file does not say")
    p.add_argument("--local", action="store_true", help="the sysop plays on this console")
    p.add_argument("--log", help="log file (default: data/door.log); the screen is the caller's")
    p.set_defaults(func=cmd_door)
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
