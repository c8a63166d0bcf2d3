"""The game screen's keys: one table per state, from which both the help line and the dispatch come.

A key the table lists for a state is offered on the help line and does what its line says; any
other key answers with a short reason (REASONS, else a general one) and never acts.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

from bgdoor.term.keys import Key


class State(StrEnum):
    OPEN_SEAT = "open seat"  # the creator waits for somebody to join
    OPENING = "opening roll"
    TO_ROLL = "to roll"
    MOVING = "moving"
    WAITING = "waiting"  # the opponent rolls or moves
    DOUBLE_TO_ME = "a double offered to you"
    DOUBLE_BY_ME = "your double offered"
    RESIGN_TO_ME = "a resignation offered to you"
    RESIGN_BY_ME = "your resignation offered"
    REPLAY = "replay"  # V: the opponent's last turn, move by move
    REVIEW = "review"  # R: a match turn by turn
    SPECTATING = "spectating"
    OVER = "over"


@dataclass(frozen=True)
class Binding:
    action: str  # the screen's method that does it
    names: tuple[str, ...]  # Key.name values ('p' for P or p, 'enter', 'up', ...)
    label: str  # on the help line
    does: str  # on the full help page

    def matches(self, key: Key) -> bool:
        return key_name(key) in self.names


def key_name(key: Key) -> str:
    return "space" if key.name == " " else key.name


def _b(action: str, names: str, label: str, does: str) -> Binding:
    return Binding(action, tuple(names.split()), label, does)


HELP = _b("help", "? h", "?)help", "? or H: this page, the keys of this moment in the game.")
QUIT = _b("quit", "q esc", "Q)uit", "Q or Esc: back to the menu. The game waits for you.")
# For a watcher, or a match that is over, nothing waits for the player.
LEAVE = _b("quit", "q esc", "Q)uit", "Q or Esc: back to the menu.")
ID = _b("show_id", "i", "I)D",
        "I: the GNU Backgammon Position ID and Match ID of the board (while you move, of the turn's start).")
# Nobody moves on a watcher's board or a finished match's: the ID is of the board shown.
ID_SHOWN = _b("show_id", "i", "I)D", "I: the GNU Backgammon Position ID and Match ID of the board.")
VIEW = _b("view_last", "v", "V)iew last", "V: replay the opponent's last turn, move by move.")
# A watcher has no opponent: V shows the last turn played, whoever played it.
VIEW_WATCHING = _b("view_last", "v", "V)iew last", "V: replay the last turn played, move by move.")
REVIEW = _b("review", "r", "R)eview", "R: step through the whole match, turn by turn, forwards and backwards.")
GIVE_UP = _b("give_up", "g", "G)ive up",
             "G: offer to resign: a single game, or a gammon or backgammon where it costs more.")
ARROWS = _b("cursor", "up down left right home end pgup pgdn", "Arrows/8246 move",
            "Arrows or keypad 8 2 4 6 (7 9 1 3 too): move the cursor over the points.")
# A note goes with an answer to a resignation too: written mid-turn, it went with a refusal
# the help had not named, and the moves came back without it.
# At the offer itself N refuses it (N)o, play on): the help had promised a note with the answer.
NOTE = _b("write_note", "n", "N)ote", "N: a note of up to 140 characters for your opponent, sent with what you do "
          "next: a play, double, take, drop or resignation, or an answer to a resignation offered later.")
PICK = _b("pick", "enter act", "Enter pick/drop",
          "Enter or keypad 5: pick up the checker under the cursor, or put the one in hand down there.")
# Once the dice are played (or cannot be), Enter sends the turn; only one of PICK, COMMIT, PASS is on offer.
COMMIT = _b("commit", "enter", "Enter commits",
            "Enter, once the dice are played: send the play; U)ndo takes a move back first.")
PASS = _b("pass_turn", "enter", "Enter passes", "Enter, when no checker can move with the roll: pass the turn.")
# Either player may call a match off before anyone has rolled in it: a player named in a game
# they did not want had no way out of it but G)ive up, which is not offered before the first
# roll either.
WITHDRAW = _b("withdraw", "w", "W)ithdraw",
              "W: withdraw from a match nobody has rolled in yet, or take back a game nobody has joined "
              "(asks Y/N).")

# Bindings that share a key: the screen offers at most one of each group at a time.
ALTERNATIVES = ({PICK.action, COMMIT.action, PASS.action},)

TABLE: dict[State, tuple[Binding, ...]] = {
    State.OPEN_SEAT: (WITHDRAW, ID, HELP, QUIT),
    State.OPENING: (
        _b("roll", "p enter", "P)lay or Enter: roll for who starts",
           "P or Enter: roll one die each; the higher starts and plays both dice."),
        WITHDRAW, VIEW, ID, HELP, QUIT,
    ),
    State.TO_ROLL: (
        _b("roll", "p enter", "P)lay or Enter: roll", "P or Enter: roll the dice."),
        _b("double", "d", "D)ouble", "D: offer your opponent the cube at twice its value; they take or drop."),
        NOTE, GIVE_UP, VIEW, ID, HELP, QUIT,
    ),
    State.MOVING: (
        ARROWS, PICK, COMMIT, PASS,
        _b("bear_off", "r", "R)emove", "R: bear off the checker in hand, or the one under the cursor."),
        _b("undo", "u", "U)ndo", "U: put the checker in hand back, or take back the last move."),
        _b("typed_play", "m", "M)ove typed",
           "M: type the whole play in notation, like 24/18 13/11 (the moves made with the cursor begin the line)."),
        NOTE, GIVE_UP, VIEW, ID, HELP, QUIT,
    ),
    State.WAITING: (VIEW, GIVE_UP, ID, HELP, QUIT),
    State.DOUBLE_TO_ME: (
        _b("take", "t", "T)ake", "T: take the double; you own the cube at its new value."),
        _b("drop", "x", "X) drop", "X: drop the double and lose this game at the cube's present value (asks Y/N)."),
        NOTE, VIEW, ID, HELP, QUIT,
    ),
    State.DOUBLE_BY_ME: (VIEW, ID, HELP, QUIT),
    State.RESIGN_TO_ME: (
        _b("accept", "a", "A)ccept", "A: accept the resignation; your opponent loses what they offered (asks Y/N)."),
        _b("refuse", "n", "N)o, play on", "N: refuse the resignation; play goes on."),
        VIEW, ID, HELP, QUIT,
    ),
    State.RESIGN_BY_ME: (VIEW, ID, HELP, QUIT),
    State.REPLAY: (
        _b("next", "enter act right space", "Enter next", "Enter, Space, 6 or right arrow: the next move."),
        _b("back", "left backspace", "4 back", "4 or left arrow: the move before."),
        _b("leave", "q esc v", "Q)uit replay", "Q, Esc or V: back to the game."),
        HELP,
    ),
    State.REVIEW: (
        _b("next", "enter act right space", "Enter next", "Enter, Space, 6 or right arrow: the next step."),
        _b("back", "left backspace", "4 back", "4 or left arrow: the step before."),
        _b("first", "home pgup", "7 first", "7, Home or PgUp: the start of the match."),
        _b("last", "end pgdn", "1 last", "1, End or PgDn: the end of the record."),
        _b("leave", "q esc", "Q)uit review", "Q or Esc: back."),
        HELP,
    ),
    State.SPECTATING: (VIEW_WATCHING, REVIEW, ID_SHOWN, HELP, LEAVE),
    State.OVER: (REVIEW, VIEW, ID_SHOWN, HELP, LEAVE),
}

# Why a key that is not offered does nothing, where a general answer would not help.  Every
# key some state offers has its reason in every state that does not ("N does nothing here" said
# nothing of why a note cannot be written on the opponent's turn).
_NO_DOUBLE = "There is no double to answer."
_NO_RESIGN = "There is no offer to resign to answer."
_THEIR_TURN = "It is your opponent's turn; you will see their play here."
_ROLL_FIRST = "Roll first: P or Enter."
_NOT_BEGUN = "The game starts with the roll for who starts: P or Enter."
_NOBODY = "Nobody has joined yet; you will be told here when someone does."
_ANSWER_DOUBLE = "Answer the double first: T)ake or X) drop."
_DOUBLED = "Your double is waiting for your opponent's answer."
_ANSWER_RESIGN = "Answer the offer first: A)ccept or N)o, play on."
_RESIGNED = "You have offered to resign; your opponent must answer first."
_WATCHING = "You are watching this game, not playing in it."
WITHDRAWN_TOO_LATE = "The match is under way: it can be withdrawn only before its first roll."
_OVER = "The match is over."


def _all(reason: str, keys: str) -> dict[str, str]:
    return dict.fromkeys(keys.split(), reason)


REASONS: dict[State, dict[str, str]] = {
    State.OPEN_SEAT: {
        **_all(_NOBODY, "d g m u r n t x a"),
        "p": "Nobody has joined yet; you roll once someone does.",
        "enter": _NOBODY,
    },
    State.OPENING: {
        **_all(_NOT_BEGUN, "m u r"),
        "g": "You can give up once the game is under way.",
        "d": "You can double once the game is under way.",
        "n": "You can write a note once the game is under way.",
        "t": _NO_DOUBLE, "x": _NO_DOUBLE, "a": _NO_RESIGN,
    },
    State.TO_ROLL: {**_all(_ROLL_FIRST, "m u r"), "t": _NO_DOUBLE, "x": _NO_DOUBLE, "a": _NO_RESIGN},
    State.MOVING: {
        "p": "The dice are rolled: play them.",
        "d": "You can double only before you roll.",
        "t": _NO_DOUBLE, "x": _NO_DOUBLE, "a": _NO_RESIGN,
    },
    State.WAITING: {
        **_all(_THEIR_TURN, "p enter m u r"),
        "d": "You can double only on your own turn, before you roll.",
        # G)ive up works here, and a note goes with a resignation on one's turn: said (a tester
        # had typed one, each letter taken as a key).
        "n": "You can write a note on your own turn, to go with what you do then; an offer to resign "
             "made while you wait goes without one.",
        "t": _NO_DOUBLE, "x": _NO_DOUBLE, "a": _NO_RESIGN,
    },
    State.DOUBLE_TO_ME: {**_all(_ANSWER_DOUBLE, "d p g m u r enter a")},
    State.DOUBLE_BY_ME: {
        **_all(_DOUBLED, "p enter d m u r"),
        "g": "Your double is waiting for an answer; you cannot resign now.",
        # As on the opponent's turn: 'Your double is waiting' alone had not said when a note goes.
        "n": f"{_DOUBLED} A note is written on your own turn, to go with what you do then.",
        "t": "You offered the double: your opponent takes or drops it.",
        "x": "You offered the double: your opponent takes or drops it.",
        "a": _NO_RESIGN,
    },
    State.RESIGN_TO_ME: {
        **_all(_ANSWER_RESIGN, "p enter d g m u t x"),
        "r": "N refuses the resignation; A accepts it.",
        "j": "N refuses the resignation; A accepts it.",
    },
    State.RESIGN_BY_ME: {
        **_all(_RESIGNED, "p enter d g m u r t x"),
        "n": f"{_RESIGNED} A note is written on your own turn, to go with what you do then.",
        "a": "You offered to resign: your opponent accepts or refuses it.",
    },
    # 8 and 2 (up and down) step nowhere: 'the cursor moves only while you play your dice' read
    # as if the review were the game.
    State.REPLAY: {
        **_all("8 and 2 do nothing in a replay: 6 and 4 step forwards and back.", "up down"),
        # 1 had been told 'The cursor moves only while you play your dice', of a replay.
        **_all("A replay has one turn: 6 and 4 step forwards and back (7 and 1 go to the ends in R)eview).",
               "home end pgup pgdn"),
    },
    State.REVIEW: _all("8 and 2 do nothing in a review: 6 and 4 step forwards and back, 7 and 1 to the ends.",
                       "up down"),
    State.SPECTATING: {**_all(_WATCHING, "p enter d g m u n t x a")},
    State.OVER: {**_all(_OVER, "p enter d g m u n t x a")},
}
for _state in (s for s in State if s not in (State.OPEN_SEAT, State.REPLAY, State.REVIEW, State.SPECTATING,
                                             State.OVER)):
    REASONS[_state]["w"] = WITHDRAWN_TOO_LATE
REASONS[State.SPECTATING]["w"] = _WATCHING  # not a hint that a watcher could withdraw an open one
REASONS[State.OVER]["w"] = _OVER  # not 'The match is under way

MOVE_KEYS = ("up", "down", "left", "right", "home", "end", "pgup", "pgdn", "act")
_UP_DOWN = "8 and 2"  # how a replay's and a review's refusal of up and down begins
TAIL = " ? lists the keys."


def offered(state: State, unavailable: dict[str, str] | None = None) -> tuple[Binding, ...]:
    """The state's keys, less the actions not possible just now (action -> why not)."""
    return _offered(state, frozenset(unavailable or ()))


@lru_cache(maxsize=1024)
def _offered(state: State, unavailable: frozenset[str]) -> tuple[Binding, ...]:
    # Asked for every key and every drawing of the board; a state has few sets of reasons.
    return tuple(b for b in TABLE[state] if b.action not in unavailable)


def binding(state: State, key: Key, unavailable: dict[str, str] | None = None) -> Binding | None:
    return next((b for b in offered(state, unavailable) if b.matches(key)), None)


def refusal(state: State, key: Key, unavailable: dict[str, str] | None = None) -> str:
    """The short answer to a key that does nothing in this state."""
    unavailable = unavailable or {}
    held = next((b for b in TABLE[state] if b.matches(key) and b.action in unavailable), None)
    if held is not None:
        reason: str | None = unavailable[held.action]
    elif key_name(key) == "d" and "double" in unavailable:
        # A match with no cube (1 point, the Crawford game) says so whenever D is pressed: 'only
        # before you roll' had promised a double next turn.
        reason = unavailable["double"]
    else:
        reason = REASONS[state].get(key_name(key))
        if reason is not None and reason.startswith(_UP_DOWN) and not key.char.strip():
            # An arrow pressed, not 8 or 2: named as it was pressed ('8 and 2 do nothing' had
            # answered the Up arrow).
            reason = "Up and Down" + reason[len(_UP_DOWN):].replace("6 and 4", "Right and Left (6 and 4)", 1)
    if reason is None:
        if key.name in MOVE_KEYS and state is State.SPECTATING:
            reason = _WATCHING  # a watcher never plays: 'only while you play' promised a turn
        elif key.name in MOVE_KEYS and state is State.OVER:
            reason = _OVER
        elif key.name in MOVE_KEYS and state is not State.MOVING:
            reason = "The cursor moves only while you play your dice."
        else:
            shown = key.char.upper() if key.char.strip() else key_name(key).capitalize()
            reason = f"{shown} does nothing here."
    return reason + TAIL


def help_line(state: State, unavailable: dict[str, str] | None = None) -> str:
    """Every key the state offers now: its labels, two spaces apart."""
    return _help_line(state, frozenset(unavailable or ()))


@lru_cache(maxsize=1024)
def _help_line(state: State, unavailable: frozenset[str]) -> str:
    return "  ".join(b.label for b in _offered(state, unavailable))


def help_page(state: State, unavailable: dict[str, str] | None = None) -> list[str]:
    """The full help for the state: one paragraph per key on offer now."""
    return [b.does for b in offered(state, unavailable)]


def markdown() -> str:
    """The keys per state, for the README (a test checks that it is the same there)."""
    out = ["| When | Keys (as the help line shows them) |", "| --- | --- |"]
    for state, bindings in TABLE.items():
        out.append(f"| {state.value} | " + " · ".join(f"`{b.label}`" for b in bindings) + " |")
    out += ["", "What each key does:", ""]
    seen: set[str] = set()
    for bindings in TABLE.values():
        for b in bindings:
            if b.does not in seen:
                seen.add(b.does)
                out.append(f"- {b.does}")
    return "\n".join(out)
