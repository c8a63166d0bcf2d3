"""News: a game's record told one line per happening, from the events a player has not yet seen."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import TYPE_CHECKING

from bgdoor.rules import game as rules
from bgdoor.rules.game import Color, MatchState, Phase, Win
from bgdoor.rules.moves import roll_dice, roll_text
from bgdoor.rules.position import CHECKERS, Position
from bgdoor.rules.turn import Turn
from bgdoor.service import GameLog, GameNotice, LoggedEvent, NotFound, PlayerInfo, ServiceError, Unread
from bgdoor.term.console import WAKE
from bgdoor.term.wrap import paged, wrap
from bgdoor.ui.board import help_rows, leader_first

if TYPE_CHECKING:
    from bgdoor.ui.console import Console
    from bgdoor.ui.gateway import Gateway as Service

WIN_WORDS = {Win.SINGLE: "a single game", Win.GAMMON: "a gammon", Win.BACKGAMMON: "a backgammon"}


def a_match(length: int) -> str:
    """'a 5-point match', 'an 8-point match' (eight, eleven, eighteen, eighty-...)."""
    said = str(length)
    return f"{'an' if said.startswith('8') or length in (11, 18) else 'a'} {length}-point match"


rolled = roll_text  # a roll as players say it: the higher die first ('5-2')


def notice_text(notice: GameNotice, you: PlayerInfo | None = None) -> str:
    """A notice (see GameNotice) as the menu says it to `you`, the player as they are now."""
    if notice.kind == "renamed":
        now = f" to {you.handle}" if you is not None else ""
        how = ""
        if you is not None and you.origin == "telnet":
            how = f" Log in as {you.handle} from now on."
        elif you is not None and you.has_password:
            # A door player the sysop gave a password logs in over telnet by the handle: not told.
            how = f" Over telnet, log in as {you.handle} from now on."
        return f"The sysop changed your handle from {notice.other}{now}.{how}"
    if notice.kind == "opponent_renamed":
        return _renamed(notice.other, notice.now, [notice.game_id])
    match = a_match(notice.length)
    if notice.kind == "withdrawn":
        return f"{notice.other} withdrew from game #{notice.game_id}, {match} with you, before its first roll."
    with_whom = f" with {notice.other}" if notice.other else ""
    return f"The sysop removed game #{notice.game_id}, your {match.split(' ', 1)[1]}{with_whom}."


def notices_text(notices: Sequence[GameNotice], you: PlayerInfo | None = None) -> str:
    """The notices as the menu says them, an opponent's new name once for all their games ('in
    games #3 and #5'), where each game had said it again."""
    said: list[str | tuple[str, str]] = []
    games: dict[tuple[str, str], list[int]] = {}
    renamed = False
    for n in notices:
        if n.kind == "renamed":
            # Renamed again and again while away: from the first name to the one now, once (each
            # had been told 'from <that one> to rob', bob to rob twice among them).
            if not renamed and (you is None or n.other != you.handle):
                said.append(notice_text(n, you))
            renamed = True
            continue
        if n.kind != "opponent_renamed":
            said.append(notice_text(n, you))
            continue
        # Renamed again since, in the same game: one rename from the first name to the last
        # ('renamed bob to robert', 'renamed robert to bobby', ... each said of game #12).
        earlier = next((k for k, ids in games.items() if k[1] == n.other and n.game_id in ids), None)
        if earlier is not None:
            games[earlier].remove(n.game_id)
            key = (earlier[0], n.now)
        else:
            key = (n.other, n.now)
        if key not in games:
            said.append(key)  # said where its first game comes, once all are known
        games.setdefault(key, []).append(n.game_id)
    return " ".join(_renamed(*item, games[item]) if isinstance(item, tuple) else item for item in said
                    if not isinstance(item, tuple) or (games[item] and item[0] != item[1]))


def _renamed(was: str, now: str, games: list[int]) -> str:
    listed = f"game #{games[0]}" if len(games) == 1 else \
        "games " + ", ".join(f"#{g}" for g in games[:-1]) + f" and #{games[-1]}"
    return f"The sysop renamed {was}, your opponent in {listed}, to {now}."


def points(n: int) -> str:
    return f"{n} point{'' if n == 1 else 's'}"


def ends_match(state: MatchState, winner: Color, won: int) -> bool:
    """Whether `won` more points for `winner` end the match (an offer or a question says so)."""
    return state.length > 0 and state.score_of(winner) + won >= state.length


# Phases where the player to act answers an offer.
ASKING = frozenset({Phase.DOUBLED, Phase.RESIGNED})


@dataclass(frozen=True)
class NewsLine:
    seq: int  # the last event the line tells of
    text: str
    result: bool = False  # a game or match result: kept on screen until a key
    opening: bool = False  # an opening roll (not the play made with it)


@dataclass(frozen=True)
class Step:
    """One event of a match with the state after it, for review and news."""

    logged: LoggedEvent
    before: MatchState
    after: MatchState


def steps(log: GameLog) -> list[Step]:
    """The match replayed event by event (derived events ride on the event that caused them)."""
    state = rules.new_match(log.game.state.length)
    out: list[Step] = []
    for logged in log.events:
        before = state
        if not logged.event.derived:
            state, _ = rules.apply(state, logged.event)
        out.append(Step(logged, before, state))
    return out


def _score(log: GameLog, score: tuple[int, int]) -> str:
    return leader_first(log.game.name(Color.WHITE), score[0], log.game.name(Color.BLACK), score[1])


def narrate(log: GameLog, since: int, viewer_id: int | None = None, everything: bool = False) -> list[NewsLine]:
    """What happened from event `since` on; the viewer's own actions are left out unless `everything`."""
    g = log.game
    lines: list[NewsLine] = []
    if since < 0 and g.white_id and g.black_id:
        other = g.black if g.white_id == viewer_id else g.white
        if log.creator_id == viewer_id:
            # No game number: the board names its game, and the menu's headlines put "#N:" first.
            lines.append(NewsLine(-1, f"{other} joined your game."))
        else:
            lines.append(NewsLine(-1, f"{other} began {a_match(g.state.length)} with you."))
    pending: Step | None = None  # a roll (or the opening roll), told together with the play that follows it
    prev: Step | None = None

    def add(new: NewsLine) -> None:
        # The opening roll decided after ties, told with them in one line: at 40 columns the ties'
        # line and the decided roll's did not fit together, and the roll (who starts, with which
        # dice) was the part cut off.
        decided = new.text.startswith(_OPENING) and not new.text.endswith(_AGAIN)
        if decided and lines and lines[-1].opening and lines[-1].text.endswith(_AGAIN):
            lines.pop()
            new = replace(new, opening=True)
        if decided and decided_after:
            # Told before its play or with it, in this look or a later one: the same words.
            new = replace(new, text=_with_ties(new.text, decided_after))
        lines.append(new)
    ties: list[int] = []  # the ties before the opening roll being decided
    decided_after: list[int] = []  # the ties before the decided opening roll
    opened = False  # the dice now are the opening roll's: no roll since it
    for step in steps(log):
        ev, seq = step.logged.event, step.logged.seq
        # The play right after the opening roll says the roll with it: told apart, the roll's line
        # said who starts, the play's 'rolled 3-1' as if the starter had rolled both dice.
        opening = prev if prev is not None and decided_opening(prev) and isinstance(ev, rules.Move) else None
        # The same play after an offer to resign and its refusal: 'fred rolled 5-1 and played'.
        with_opening = opened and opening is None and isinstance(ev, rules.Move)
        opened = decided_opening(step) or (opened and not isinstance(ev, (rules.Roll, rules.Move)))
        prev = step
        if isinstance(ev, rules.OpeningRoll):
            ties, decided_after = ([*ties, ev.white], []) if ev.white == ev.black else ([], ties)
        if seq < since or (not everything and viewer_id is not None and step.logged.player_id == viewer_id):
            if pending is not None:  # the opponent's opening roll, and the viewer's own play with it
                add(_roll_line(log, pending, viewer_id))
                pending = None
            continue
        if isinstance(ev, rules.Roll) or decided_opening(step):
            pending = step
            continue
        line = tell(log, step, opening, viewer_id, with_opening=with_opening)
        if isinstance(ev, rules.MatchWon) and lines and lines[-1].seq == seq - 1 and lines[-1].result:
            # The game that won the match: one line for both.
            won = lines.pop()
            rest = re.split(r"wins? the match, ", line, maxsplit=1)[1]
            line = won.text.split(". Score:")[0] + ", and the match " + rest
        if pending is not None and isinstance(ev, rules.Move):
            pending = None
        elif pending is not None:
            add(_roll_line(log, pending, viewer_id))
            pending = None
        if line:
            opening_roll = isinstance(ev, rules.OpeningRoll)  # a tie: they roll again
            if isinstance(ev, rules.OpeningRoll) and lines and lines[-1].opening and lines[-1].text.endswith(_AGAIN):
                # Ties in a row, one line: the board keeps the last two lines, and lost the first.
                line = lines.pop().text.removesuffix(_AGAIN) + f", then both {ev.white}" + _AGAIN
            add(NewsLine(seq, line, isinstance(ev, (rules.GameWon, rules.MatchWon)), opening_roll))
    if pending is not None:
        add(_roll_line(log, pending, viewer_id))
    return lines


# Why a match was forfeited, as the record names it (the stale-game sweep, the sysop's deletion).
FORFEIT_WHY = {
    "time": " for taking too long to move",
    "player deleted": ": the sysop closed the account",
    "sysop": ": the sysop ended it",
}
_AGAIN = "; they roll again."
CRAWFORD_NEXT = "Next is the Crawford game: no doubling in it."
_OPENING = "Opening roll: "


def _with_ties(text: str, ties: list[int]) -> str:
    """An opening roll's line ('Opening roll: ...') saying the ties before it."""
    said = f"a tie at {ties[0]}" if len(ties) == 1 else f"ties at {', '.join(map(str, ties[:-1]))} and {ties[-1]}"
    return text.replace(_OPENING, f"Opening roll, after {said}: ", 1)


_PLAYED = re.compile(r"\b(played|playing)\b")


def told_again(texts: list[str]) -> list[str]:
    """Lines told one after another on the board, without a roll that a later line tells again
    with its play (narrate says an opening roll's ties in both the same way).  A play is never
    one: 'fred rolled 3-2 and played bar/22 13/11.' had gone for a later turn of the same words
    and a hit, 'bar/22 13/11*', and a watcher saw gwen play twice in a row."""
    return [t for i, t in enumerate(texts)
            if _PLAYED.search(t) or not any(u.startswith(t.removesuffix(".")) for u in texts[i + 1 :])]


def _roll_line(log: GameLog, step: Step, viewer_id: int | None) -> NewsLine:
    """A roll told on its own line (its play is not in the news)."""
    opening = isinstance(step.logged.event, rules.OpeningRoll)
    return NewsLine(step.logged.seq, tell(log, step, viewer_id=viewer_id), opening=opening)


def decided_opening(step: Step) -> bool:
    """An opening roll that decided who starts (not a tie)."""
    ev = step.logged.event
    return isinstance(ev, rules.OpeningRoll) and ev.white != ev.black


def tell(
    log: GameLog, step: Step, opening: Step | None = None, viewer_id: int | None = None, *, with_opening: bool = False
) -> str:
    """One event in words, with the note its player left with it; a play with the `opening` roll
    it was made with, or (`with_opening`) made with the opening roll told before it.  A result
    is told to its winner (`viewer_id`) as 'You win': beside the panel's 'You won the game',
    'bob wins' read as if it were the other player's."""
    text = _tell(log, step, viewer_id)
    ev = step.logged.event
    if opening is not None and isinstance(ev, rules.Move):
        text = _tell(log, opening, viewer_id).removesuffix(".") + f", playing {ev.notation}."
    elif with_opening and isinstance(ev, rules.Move) and ev.notation and step.before.dice:
        who = _does(log, step.before.actor, viewer_id, "plays", "play")
        text = f"{who} the opening {rolled(step.before.dice)}: {ev.notation}."
    if text and step.logged.note:
        writer = ev.by if isinstance(ev, rules.Resign) else step.before.actor
        whose = "Your" if writer is not None and _is_viewer(log, writer, viewer_id) else \
            f"{log.game.name(writer)}'s" if writer is not None else "The"
        text += " " + note_words(whose, step.logged.note)
    return text


def since_turn(log: GameLog, seq: int, viewer_id: int | None) -> str:
    """What was done with the cube and resignations after the play at event `seq`, by either
    player, game by game, for V)iew last, which replays that play ('Since then bob doubled to 2;
    you took the double.').  The replay of the move before a double read as if it were the last
    thing done; the opponent's acts alone read as two offers to resign in a row, and a watcher was
    told nothing of the player who had not played last.  '' for nothing since."""
    g = log.game
    seated = viewer_id is not None and viewer_id in (g.white_id, g.black_id)
    games: dict[int, list[str]] = {}
    replayed = None
    for step in steps(log):
        logged, ev, cube = step.logged, step.logged.event, step.before.cube
        if logged.seq == seq:
            replayed = step.before.game
        if logged.seq <= seq or logged.player_id is None:
            continue
        mine = seated and logged.player_id == viewer_id
        their = "your" if seated and not mine else "the"
        if isinstance(ev, rules.Double):
            did = f"{'redoubled' if cube > 1 else 'doubled'} to {cube * 2}"
        elif isinstance(ev, (rules.Take, rules.Drop)):
            did = f"{'took' if isinstance(ev, rules.Take) else 'dropped'} {their} double"
        elif isinstance(ev, rules.Resign):
            did = f"offered to resign, giving {WIN_WORDS[ev.win]}"
        elif isinstance(ev, (rules.AcceptResign, rules.RejectResign)):
            did = f"{'accepted' if isinstance(ev, rules.AcceptResign) else 'refused'} {their} resignation"
        else:
            continue
        who = "you" if mine else g.name(Color.WHITE if logged.player_id == g.white_id else Color.BLACK)
        games.setdefault(step.before.game, []).append(f"{who} {did}")
    said: list[str] = []
    for game, acts in games.items():
        if game == replayed:
            head = "Since then"
        else:
            head = f"In game {game}," if said else f"Since then, in game {game},"
        said.append(f"{head} {'; '.join(acts)}.")
    return " ".join(said)


def note_words(whose: str, note: str, label: str = "note") -> str:
    """'bob's note: "no thanks".': a sentence of its own, as the news and the board both say it
    (the board had said 'bob says: ...' of the note the news had called bob's note); what follows
    it on the line ('You win ...') had run on from '"no thanks"' with no stop between."""
    return f'{whose} {label}: "{note}"' + ("" if note.rstrip().endswith((".", "!", "?")) else ".")


def _is_viewer(log: GameLog, colour: Color, viewer_id: int | None) -> bool:
    seat = log.game.white_id if colour is Color.WHITE else log.game.black_id
    return viewer_id is not None and seat == viewer_id


def _does(log: GameLog, colour: Color | None, viewer_id: int | None, verb: str, you: str = "") -> str:
    """'bob takes', or 'You take' to bob (`you`: the verb said to them, where it is not `verb`
    without its s).  The record told to one of its players speaks to them throughout: a review
    had 'alice takes the double' and 'You win' for the same alice."""
    if colour is None:
        return verb
    if _is_viewer(log, colour, viewer_id):
        return f"You {you or verb.removesuffix('s')}"
    return f"{log.game.name(colour)} {verb}"


_HOPS = re.compile(r"/|\((\d)\)")


def _unplayed(before: MatchState, dice: tuple[int, int], ev: rules.Move) -> str:
    """'; the 6 could not be played' where the rules let only part of the roll be played: the
    opponent had been told 'carol rolled 6-4 and played bar/21.', as if half the roll were lost.
    Not said of a play that bears off the last checker (the game is won)."""
    roll = roll_dice(dice)
    # Single moves the notation writes (a hop combined of two dice, '24/13', counts one): a play
    # that writes as many as the roll has needs no look at the rules.
    hops = sum(int(m[1]) - 1 if m[1] else 1 for m in _HOPS.finditer(ev.notation))
    if hops >= len(roll):
        return ""
    required = Turn(before.position, dice).required
    after = Position.from_id(ev.position)
    if required >= len(roll) or not required or after.opponent_off == CHECKERS:
        return ""
    if dice[0] == dice[1]:
        n = len(roll) - required
        return f"; {('one', 'two', 'three')[n - 1]} {dice[0]}{'s' if n > 1 else ''} could not be played"
    moved = before.position.pips()[0] - after.pips()[1]  # the mover is on the other side after
    used = moved if moved in dice else max(dice)  # a bear-off from a lower point with the higher die
    return f"; the {dice[1] if used == dice[0] else dice[0]} could not be played"


def _tell(log: GameLog, step: Step, viewer_id: int | None = None) -> str:
    """One event in words."""
    g, ev, before, after = log.game, step.logged.event, step.before, step.after
    actor = before.actor
    if isinstance(ev, rules.OpeningRoll):
        w, b = g.name(Color.WHITE), g.name(Color.BLACK)
        if ev.white == ev.black:
            return f"Opening roll: {w} and {b} both rolled {ev.white}{_AGAIN}"
        starter = Color.WHITE if ev.white > ev.black else Color.BLACK
        # To its winner in the second person, as a result is: 'alice starts' read as the other's.
        first = _does(log, starter, viewer_id, "starts")
        hi, lo = max(ev.white, ev.black), min(ev.white, ev.black)
        return f"Opening roll: {w} {ev.white}, {b} {ev.black}. {first} with {hi}-{lo}."
    if isinstance(ev, rules.Roll):
        return f"{_does(log, actor, viewer_id, 'rolled', 'rolled')} {rolled(ev.dice)}."
    if isinstance(ev, rules.Move):
        dice = before.dice or (0, 0)
        who = _does(log, actor, viewer_id, "rolled", "rolled")
        if not ev.notation:
            return f"{who} {rolled(dice)} and cannot move."
        return f"{who} {rolled(dice)} and played {ev.notation}{_unplayed(before, dice, ev)}."
    if isinstance(ev, rules.Double):
        # A cube turned again: redoubles.
        return f"{_does(log, actor, viewer_id, 'redoubles' if before.cube > 1 else 'doubles')} to {before.cube * 2}."
    if isinstance(ev, rules.Take):
        return f"{_does(log, actor, viewer_id, 'takes')} the double; the cube is at {after.cube}."
    if isinstance(ev, rules.Drop):
        return f"{_does(log, actor, viewer_id, 'drops')} the double."
    if isinstance(ev, rules.Resign):
        offered = before.cube * ev.win.multiplier
        # As the offer said it to the one who made it: whether accepting it ends the match.
        match = ", the match" if ends_match(before, ev.by.other, offered) else ""
        giving = f"giving {WIN_WORDS[ev.win]} ({points(offered)}{match})"
        return f"{_does(log, ev.by, viewer_id, 'offers')} to resign, {giving}."
    if isinstance(ev, rules.AcceptResign):
        return f"{_does(log, actor, viewer_id, 'accepts')} the resignation."
    if isinstance(ev, rules.RejectResign):
        return f"{_does(log, actor, viewer_id, 'refuses')} the resignation; play goes on."
    if isinstance(ev, rules.Forfeit):
        why = FORFEIT_WHY.get(ev.reason, f" ({ev.reason})")
        return f"{_does(log, ev.loser, viewer_id, 'forfeits')} the match{why}."
    if isinstance(ev, rules.GameWon):
        score, wins = _score(log, after.score), _does(log, ev.winner, viewer_id, "wins")
        if ev.how == "forfeit":
            # The points are what the match still needed: 'a single game ..., 3 points' was no game won.
            return f"{wins} by forfeit. Score: {score}."
        how = {"drop": " on a drop", "resign": " by resignation"}.get(ev.how, "")
        text = f"{wins} {WIN_WORDS[ev.win]}{how}, {points(ev.points)}. Score: {score}."
        # The title's '· Crawford' alone had said why D)ouble no longer worked.
        return text + (f" {CRAWFORD_NEXT}" if after.crawford and not after.over else "")
    if isinstance(ev, rules.MatchWon):
        text = f"{_does(log, ev.winner, viewer_id, 'wins')} the match, {max(after.score)}-{min(after.score)}."
        if log.ratings:
            text += " " + rating_text(log)
        return text
    return ""


def rating_text(log: GameLog) -> str:
    """'Ratings: alice 1510.3 (+10.3), bob 1489.7 (-10.3).'"""
    if not log.ratings:
        return ""
    shown = (f"{r.handle} {r.after:.1f} ({shown_change(r.before, r.after)})" for r in log.ratings)
    return "Ratings: " + ", ".join(shown) + "."


def shown_change(before: float, after: float) -> str:
    """'+16.4': the change between the two ratings as shown, each rounded to 0.1 first, so that the
    changes a player adds up over several matches land on the rating shown (1522.36 -> 1538.74
    had said +16.4 beside 1522.4 and 1538.7)."""
    return f"{Decimal(f'{after:.1f}') - Decimal(f'{before:.1f}'):+.1f}"


async def gather(
    svc: Service, player_id: int, games: int | None = 12
) -> tuple[list[tuple[Unread, GameLog, list[NewsLine]]], bool]:
    """The news of the player's games, most recently changed first: of the `games` latest (the
    menu's, read at every redraw), or of all of them (None: the N)ews page); and whether games
    with news were left unread (the menu's count is then a part: it had said 'News (19)' over 25)."""
    unread = await svc.unread(player_id)
    out: list[tuple[Unread, GameLog, list[NewsLine]]] = []
    for u in unread[:games]:
        try:
            log = await svc.game_log(u.game_id, player_id)
        except NotFound:
            # Withdrawn or removed between the list and this read: its notice tells of it.  The
            # error had ended the opponent's call at the menu ('there is no game 1').
            continue
        lines = narrate(log, u.since, player_id)
        if lines:
            out.append((u, log, lines))
    return out, games is not None and len(unread) > games


def bullet(text: str, width: int) -> list[str]:
    """An item of a news page: '- ' and the text, its further lines indented under the text."""
    lines = wrap(text, width - 2) or [""]
    return ["- " + lines[0], *("  " + line for line in lines[1:])]


PageLine = tuple[str, int, int]  # a line on screen, the item it belongs to, and which line of it


def news_book(items: list[str], width: int, per: int) -> list[list[PageLine]]:
    """`items` as bullets (see bullet) on pages of `per` lines, an item that fits on a page not
    split between two; one empty page for none."""
    return paged([[(part, k, j) for j, part in enumerate(bullet(text, width))] for k, text in enumerate(items)], per)


def page_holding(book: list[list[PageLine]], line: tuple[int, int]) -> int:
    """The page of `book` that holds `line` (an item, a line of it), or the line before it: after a
    resize the page shown begins where the reader was, or as near as the new lines allow."""
    return max((n for n, page in enumerate(book) for _, k, j in page if (k, j) <= line), default=0)


def headlines(news: list[tuple[Unread, GameLog, list[NewsLine]]]) -> list[str]:
    """One line per happening, each marked with its game."""
    return [f"#{log.game.id}: {n.text}" for _, log, lines in news for n in lines]


@dataclass(frozen=True)
class Headline:
    """One line of the menu's news."""

    result: bool  # a game's or match's result
    match: bool  # the match's result
    asks: bool  # a double or a resignation waiting for the player's answer
    at: float  # when, as a timestamp
    index: int  # its place in the news as gathered: ties keep it
    text: str


def _headlines(news: list[tuple[Unread, GameLog, list[NewsLine]]]) -> list[Headline]:
    found: list[Headline] = []
    for _, log, lines in news:
        when = {e.seq: e.when for e in log.events}
        ratings = rating_text(log)
        st = log.game.state
        waiting = log.events[-1].seq if log.events and log.game.my_turn and st.phase in ASKING else None
        ended = max((n.seq for n in lines if n.result), default=None) if st.over else None
        for n in lines:
            # A line with no event of its own (the seating) goes by when its game was begun: put
            # after every dated line, the oldest of six new games came first under 'the latest first'.
            at = when.get(n.seq) or log.game.created or log.game.updated
            # Without the ratings (N)ews has them): the menu had cut a lost match at 'and the...'.
            text = n.text.removesuffix(f" {ratings}") if ratings else n.text
            found.append(Headline(n.result, n.seq == ended, n.seq == waiting, at.timestamp(), len(found),
                                  f"#{log.game.id}: {text}"))
    return found


def latest_first(news: list[tuple[Unread, GameLog, list[NewsLine]]]) -> list[str]:
    """The menu's headlines newest first across all the games (`news` is grouped by game): the
    menu has room for a few, and they must be the latest, whichever game they come from."""
    return [h.text for h in sorted(_headlines(news), key=lambda h: (h.at, h.index), reverse=True)]


def menu_headlines(news: list[tuple[Unread, GameLog, list[NewsLine]]]) -> tuple[list[str], str, int, int]:
    """The menu's headlines: results first, then a double or a resignation waiting for the
    player's answer, then the rest, each group newest first; what the heading says of the
    order; how many lead (results and offers); and how many of those are results.  A match lost
    while away had been below the rolls of other games, and a double to answer behind '(N: all)'."""
    found = _headlines(news)
    # A match's end before a game's: a lost match had come second, after a game won, and been cut.
    first = sorted(found, key=lambda h: (h.result, h.match, h.asks, h.at, h.index), reverse=True)
    # Said of what leads, moved or not: 'offers first' had stood over a result that led as the
    # latest, and 'the latest first' over a result and its answer below it.
    results, offers = any(h.result for h in found), any(h.asks and not h.result for h in found)
    order = "results, offers first" if results and offers else "results first" if results else \
        "offers first" if offers else "the latest first"
    return [h.text for h in first], order, sum(h.result or h.asks for h in first), sum(h.result for h in first)


News = list[tuple[Unread, GameLog, list[NewsLine]]]


def paging_keys(page: int, last: bool, back: str = "back to the menu", quit: str = "menu") -> str:
    """The keys of a page of text (N)ews, I)nstructions, a ? page), laid out by help_rows: B
    turns back where there is a page before, Q leaves (`quit`), any other key turns on, or after
    the last page goes `back`."""
    if last:
        # Any key but B goes back (X had, under 'Enter: back to the menu').
        return f"B: page back  Any other key: {back}" if page else f"Any key: {back}"
    # Any other key turns the page ('Enter/Space: next page' had not offered the X that turned it).
    return ("B: page back  " if page else "") + f"Q: {quit}  Any other key: next page"


async def news_page(con: Console, svc: Service, player_id: int, news: News) -> None:
    """All the news on pages; what the player has seen is marked read (Q leaves the rest news).
    Laid out again when the window changes size, from the headline the page began with."""
    told: list[tuple[int, NewsLine]] = []  # each headline: its game's index in `news`, its line
    heads: list[str] = []
    for index, (_, log, lines) in enumerate(news):
        for line in lines:
            told.append((index, line))
            heads.append(f"#{log.game.id}: {line.text}")
    seen: set[int] = set()  # the headlines whose last line was on screen
    marked: dict[int, int] = {}  # each game's mark saved so far (its index in `news`: upto)

    async def mark() -> None:
        """Save what has been seen so far (the database busy: it stays news).
        Page by page: marked only when the page was left, the news had stayed on the player's
        menu in their other session as long as the page was up, and had come back to a caller
        whose line dropped there."""
        for index, (u, log, _) in enumerate(news):
            if log.game.white_id is None or log.game.black_id is None:
                continue  # an open seat: who joins is still to be told
            mine = [k for k, (game, _) in enumerate(told) if game == index]
            if all(k in seen for k in mine):
                upto = len(log.events)
            else:
                # Nothing of it seen: nothing marked (a default of 0 marked an unseen seating read).
                upto = max((told[k][1].seq + 1 for k in mine if k in seen), default=-1)
                if upto <= u.since:
                    continue
            if marked.get(index) == upto:
                continue
            try:
                await svc.mark_read(player_id, u.game_id, upto)
            except ServiceError:
                return
            marked[index] = upto

    top = (0, 0)  # the page shown begins with this line of this headline
    first = False  # B (or Up) pressed on the first page: said so in the footer
    while True:
        book = news_book(heads or ["Nothing new in your games since you last looked."], con.width - 3,
                         max(1, con.height - 4))
        n = page_holding(book, top)
        con.clear()
        pages = f" (page {n + 1} of {len(book)})" if len(book) > 1 else ""
        # Game by game, each in order, as the menu's are not (the latest, or results, first).
        con.put_wrapped(1, 2, f"News from your games, game by game{pages}", "title")
        for i, (text, _, _) in enumerate(book[n]):
            con.put(3 + i, 2, text)
        # B turns a page back, as on the help pages: it had gone forward like any other key.
        # In the I)nstructions' words ('Press a key for more; Q goes back.' had been this page's own).
        keys = paging_keys(n, n == len(book) - 1)
        footer = help_rows(f"This is the first page.  {keys}" if first else keys, con.width - 3, 2)
        first = False
        for i, row in enumerate(footer):
            con.put((con.height - 1 if con.height < 25 else 24) + i, 2, row, "dim")
        await con.show()
        if heads:
            ends = {k: j for page in book for _, k, j in page}  # each headline's last line
            seen |= {k for _, k, j in book[n] if ends[k] == j}
            await mark()
        key = await con.key_or_resize()
        if key is WAKE:
            continue
        if (key.char.upper() == "B" or key.name in ("up", "pgup", "left")) and len(book) > 1:
            # Back, as on the I)nstructions' pages; on the first page it stays, and says so (Up
            # there had turned on, where the I)nstructions' Up stays).
            first = n == 0
            top = book[n - 1][0][1:] if n else top
            continue
        if key.name in ("q", "esc") or n == len(book) - 1:
            break
        top = book[n + 1][0][1:]
    await mark()  # a busy database: the news stays news until the next look
