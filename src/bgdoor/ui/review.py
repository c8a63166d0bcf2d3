"""Looking back: review steps through a whole match, turn by turn, forwards and backwards."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from bgdoor.rules import game as rules
from bgdoor.rules.game import Color
from bgdoor.rules.moves import (
    Move as CheckerMove,  # one checker by one die; rules.Move is a play
    roll_text,
)
from bgdoor.rules.position import Position
from bgdoor.service import GameLog, ServiceError
from bgdoor.term.wrap import first_fitting, paged, shorten, wrap
from bgdoor.ui import keys as keytable
from bgdoor.ui.board import HELP_GAP, game_heading, help_rows, last_text_row
from bgdoor.ui.console import WAKE, Console, Key
from bgdoor.ui.keys import State
from bgdoor.ui.news import Step, a_match, decided_opening, paging_keys, steps, tell

if TYPE_CHECKING:
    from bgdoor.ui.gateway import Gateway

MORE = "... (? shows all)"


def fit_message(text: str, width: int, rows: int = 3) -> tuple[str, str]:
    """(what the board's message lines hold, three or `rows`, the whole text when it had to be cut,
    else ""): a longer text (a long note, a narrow screen) is cut between words and says where the
    rest is."""
    shown = shorten(text, min(80, width) - 2, rows, MORE)
    return shown, "" if shown == text else text


async def show_whole(con: Console, text: str, then: str = "Press a key for the keys; Esc goes back.") -> bool:
    """A message the board had to cut, whole, until a key (`then` says what that key brings);
    drawn again when the window changes size.  Whether the key was Esc or Q (back, not on)."""
    while True:
        con.clear()
        con.put_wrapped(1, 2, "The message in full:", "title")
        con.put_wrapped(3, 2, text, right=con.width - 1)
        con.put_wrapped(con.height - 1, 2, then, "dim")
        await con.show()
        key = await con.key_or_resize()
        if key is not WAKE:
            return key.name == "esc" or key.char.upper() == "Q"


def step_key(con_key: Key | None, state: State, unavailable: dict[str, str] | None = None) -> tuple[str, str]:
    """(action, refusal): what a key does in a replay or review; ('', reason) for a key that does nothing."""
    if con_key is None:
        return "tick", ""
    if con_key.name == "redraw":
        return "redraw", ""
    found = keytable.binding(state, con_key, unavailable)
    if found is None:
        return "", keytable.refusal(state, con_key, unavailable)
    return found.action, ""


def is_refusal(note: str, end: str, start: str) -> bool:
    """Whether a note from step is why a key did nothing (not the words at either end)."""
    return bool(note) and note not in (end, start) and not note.startswith("The game has gone on")


def at_ends(at: int, last: int, end: str, start: str) -> dict[str, str]:
    """The steps that would go past the first or the last frame (action -> why not): the help line
    does not offer them there, and a key for one says why."""
    out: dict[str, str] = {}
    if at >= last:
        out.update(next=end, last=end)
    if at <= 0:
        out.update(back=start, first=start)
    return out


async def step(
    con: Console, state: State, key: Key | None, at: int, last: int, end: str, start: str = "", whole: str = ""
) -> tuple[int | None, str]:
    """What a key does to a replay or review showing frame `at` of 0..`last`: the frame to show
    next (None: leave) and the note to show with it.  `end` is the note for going on past the last
    frame, `start` for going back past the first; `whole`, the message the board cut, which the
    help shows first."""
    action, note = step_key(key, state, at_ends(at, last, end, start))
    if not action:
        con.bell("error")  # with S)ound on, as a key refused on the board rings (a replay's had not)
    if action == "tick":
        return (at + 1, note) if at < last else (at, note)
    if action == "next":
        return at + 1, note
    if action == "back":
        return at - 1, note
    if action == "first":
        return 0, note
    if action == "last":
        return last, note
    if action == "help":
        if not (whole and await show_whole(con, whole)):  # Esc there goes back, past the keys
            await help_page(con, state)
    elif action == "leave":
        return None, note
    elif action == "redraw":
        con.redraw()
    return at, note


async def help_page(con: Console, state: State, unavailable: dict[str, str] | None = None, back: str = "back") -> None:
    """The full help of a state, until a key: a page at a time when the screen is too short for
    it (moving, on 40 columns, takes 32 rows), laid out again when the window changes size.
    `back` says where a key goes ('back to the board')."""
    page = 0
    while True:
        paras = [wrap(text, con.width - 2) for text in keytable.help_page(state, unavailable)]
        # One page where it all fits over the one-page footer (at 40x24 the keys to roll had
        # taken two pages, the second holding the last key alone, two rows free on the first).
        single = wrap(f"Press a key to go {back}.", con.width - 2)
        body = con.height - 3 - len(single)  # rows 3 on, a blank, the footer
        # A key's paragraph is not split between pages.
        book = paged(paras, body)
        if len(book) > 1:
            body = con.height - 7  # a blank, then up to three rows for the pages' footer
            book = paged(paras, body)
        page = min(page, len(book) - 1)
        last = page == len(book) - 1
        con.clear()
        # 'Keys now (a resignation offered to' had lost 'you):' at 40 columns.
        heading = first_fitting([f"Keys now ({state.value}):", f"Keys ({state.value}):"], con.width - 3,
                                f"Keys ({state.value}):")
        con.put_wrapped(1, 2, heading, "title", right=con.width - 1, rows=1)
        for i, line in enumerate(book[page][:body]):
            con.put(3 + i, 2, line)
        if len(book) == 1:
            footer, row = single, 4 + len(book[0])
        else:
            # The menu's pages' keys: a middle page had not offered the B that turns back.
            keys = paging_keys(page, last, back, back)
            # Broken between keys, never inside one.
            footer = help_rows(HELP_GAP.join([f"Page {page + 1} of {len(book)}.", keys]), con.width - 2, 3)
            row = con.height - len(footer)
        for i, line in enumerate(footer):
            con.put(min(row, con.height - 1) + i, 2, line, "dim")
        await con.show()
        key = await con.key_or_resize()
        if key is WAKE:
            continue
        c = key.char.upper()
        if c == "B" or key.name in ("up", "pgup", "left"):  # left: back, as 4 is on the board
            page = max(0, page - 1)
        elif last or c == "Q" or key.name == "esc":
            return
        else:
            page += 1


def replay_text(
    name: str, dice: tuple[int, int], earlier: str, moves: Sequence[CheckerMove], shown: int, opening: bool = False
) -> str:
    """V)iew last's message with the first `shown` of a turn's single moves on the board: those
    moves one by one and how many of all they are.  The play's notation would not do: 24/13 is
    one move named where the board counts 24/18 and 18/13 as two.  `opening`: the play was made
    with the opening roll, one die each ('fred rolled 5-3' had said otherwise)."""
    roll = f"played the opening {roll_text(dice)}" if opening else f"rolled {roll_text(dice)}"
    head = f"Replay: {name} {roll}{earlier}:"
    if not moves:
        return f"{head} no legal play."
    if shown == 0:
        return f"{head} the board before {'the move' if len(moves) == 1 else f'the first of {len(moves)} moves'}."
    done = " ".join(str(m) for m in moves[:shown])
    return f"{head} {done} ({shown} of {len(moves)} move{'s' if len(moves) != 1 else ''})."


@dataclass(frozen=True)
class Frame:
    """One step of a match as the review shows it."""

    position: Position
    on_roll: Color
    dice: tuple[int, int] | None
    state: rules.MatchState
    text: str
    winner: Color | None = None  # a result: the panel names the winner (unmarked), as on the game screen


def frames(log: GameLog) -> list[Frame]:
    """The match from its start, one frame per recorded event; a play shows the board after it."""
    start = rules.new_match(log.game.state.length)
    opening = f"Game #{log.game.id}, {a_match(log.game.state.length)}: the start."
    out = [Frame(start.position, Color.WHITE, None, start, opening)]
    g = log.game
    # A player reviewing their own match reads their results as the board told them: 'You win'.
    viewer = g.white_id if g.viewer_color is Color.WHITE else g.black_id if g.viewer_color is Color.BLACK else None
    last: Step | None = None
    headed: set[int] = set()
    for step in steps(log):
        ev = step.logged.event
        prev = out[-1]
        # The play right after the opening roll is made with its dice, as the board tells it: not
        # 'rolled 5-4 and played', as if the starter had rolled again.
        roll = last if last is not None and decided_opening(last) and isinstance(ev, rules.Move) else None
        text = tell(log, step, roll, viewer_id=viewer)
        last = step
        st = step.after
        if isinstance(ev, rules.OpeningRoll) and st.game >= 2 and st.game not in headed:
            # Each game after the first opens with which it is and the score, as the game screen
            # tells it: at 60 columns, the panel with the score cut, no step had said it.
            headed.add(st.game)
            text = f"{game_heading(g.name(Color.WHITE), g.name(Color.BLACK), st)} {text}"
        if isinstance(ev, rules.Move) and step.before.turn is not None:
            # The board after the play, still on the mover's side with their dice, as V)iew last shows
            # it (the record's Position ID has the next player on roll).
            mover = step.before.turn
            # The play that ends a game is still shown with that game's score, Crawford note and
            # cube: the new score and the next game's are the win's, the step after.
            game_ended = step.after.game != step.before.game or (step.after.over and not step.before.over)
            state = step.before if game_ended else step.after
            frame = Frame(Position.from_id(ev.position).swap(), mover, step.before.dice, state, text)
        elif ev.derived:
            won = ev.winner if isinstance(ev, (rules.GameWon, rules.MatchWon)) else None
            # The new score on the game just won: its cube, and not the next game's Crawford note.
            ended = prev.state
            state = replace(step.after, crawford=ended.crawford, cube=ended.cube, cube_owner=ended.cube_owner)
            frame = Frame(prev.position, prev.on_roll, None, state, text, won)
        elif step.after.game != step.before.game or (step.after.over and not step.before.over):
            # It ended the game (a double dropped, a resignation accepted): the board it ended on,
            # not the next game's start, which its opening roll shows; and the score before it,
            # which the win that follows changes (the match's last game too).
            before = step.before
            # The offer answered: 'gwen drops the double' had stood beside 'Cube 4 offered to
            # gwen' and the marker, as if the double still waited; nobody is to act now.
            settled = replace(before, phase=rules.Phase.ROLL, resign_by=None, resign_win=None) \
                if before.phase in (rules.Phase.DOUBLED, rules.Phase.RESIGNED) else before
            won = step.after.results[-1].winner if len(step.after.results) > len(before.results) else None
            frame = Frame(before.position, before.turn or prev.on_roll, None, settled, text, won)
        else:
            after = step.after
            frame = Frame(after.position, after.turn or Color.WHITE, after.dice, after, text)
        out.append(frame)
    return out


async def review_match(con: Console, svc: Gateway, player_id: int | None, game_id: int) -> None:
    """Step through a match, forwards and backwards, with the board and the notation."""
    log = await svc.game_log(game_id, player_id)
    g = log.game
    if player_id is not None and g.viewer_color is not None and g.white_id is not None and g.black_id is not None:
        try:
            await svc.mark_read(player_id, game_id, len(log.events))  # the whole record is in front of them now
        except ServiceError:
            pass  # still news next time; nothing is lost
    shots = frames(log)
    at = len(shots) - 1
    note = ""
    woken = False
    end = "That is the end of the record. 4 goes back, Q leaves."
    start = "That is the start of the match. Enter goes forward, Q leaves."
    while True:
        f = shots[at]
        said = f"Step {at} of {len(shots) - 1}: {f.text}"
        # Why a key did nothing, before the step it did nothing at (the step had gone from sight).
        message, whole = fit_message(f"{note} {said}" if is_refusal(note, end, start) else note or said, con.width)
        con.board(
            g,
            f.state,
            position=f.position,
            on_roll=f.on_roll,
            dice=f.dice,
            # With an offer waiting, who answers it, as the game screen marks them (the review had
            # marked the player who offered).
            turn=f.winner or (f.state.actor if f.state.phase in (rules.Phase.DOUBLED, rules.Phase.RESIGNED) else None)
            or f.on_roll,
            # Nobody's turn before an opening roll is won (the start, a tie), nor at a result or
            # once the match is over, as on the game screen: the marker on the winner had read as
            # the winner to act (the step's words say who won).
            marker=f.winner is None and not f.state.over and f.state.phase is not rules.Phase.OPENING,
            status=f"Review {at}/{len(shots) - 1}",
            message=message,
            help=keytable.help_line(State.REVIEW, at_ends(at, len(shots) - 1, end, start)),
            # Under 22 lines its third line, where '? shows all' goes, was below the screen.
            last_row=last_text_row(con.height),
        )
        await con.show()
        key = await con.key(idle=True, wake=True)
        if key is WAKE:
            # A new size (the board laid out for it), or a live game gone on meanwhile: its new
            # steps join the record, and the reviewer is told rather than left at 'the end'.
            # The board beneath is woken again on the way out, to tell its news.
            woken = True
            try:
                fresh = await svc.game_log(game_id, player_id)
            except ServiceError:
                continue
            if len(fresh.events) != len(log.events):
                before = len(shots)
                log, g, shots = fresh, fresh.game, frames(fresh)
                at = min(at, len(shots) - 1)
                ahead = len(shots) - 1 - at  # the steps Enter goes through from here
                if len(shots) > before and ahead > 0:
                    note = (f"The game has gone on: {ahead} more step{'s' if ahead != 1 else ''} "
                            f"from here (now {len(shots) - 1}). Enter goes forward, Q leaves.")
            continue
        moved, note = await step(con, State.REVIEW, key, at, len(shots) - 1, end=end, start=start, whole=whole)
        if moved is None:
            if woken:
                con.wake()
            return
        at = moved
