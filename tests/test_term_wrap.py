"""The one wrapping helper every screen's text goes through."""

from __future__ import annotations

import re

import pytest

from bgdoor.term.wrap import fit, fit_name, pages, sentence, shared, shorten, shorten_whole, wrap
from bgdoor.ui.texts import load_text


@pytest.mark.parametrize("width", [79, 60, 40, 20])
def test_instructions_fit_and_keep_every_word(width: int) -> None:
    text = load_text("instructions")
    lines = wrap(text, width)
    assert all(len(line) <= width for line in lines)
    assert " ".join(lines).split() == text.split()  # every word whole, in order


def test_breaks_at_word_boundaries() -> None:
    assert wrap("the quick brown fox jumps", 10) == ["the quick", "brown fox", "jumps"]


def test_a_layout_that_fits_is_kept() -> None:
    text = "MAIN MENU\n  V)iew   games\n      8 up      2 down"
    assert wrap(text, 79) == text.split("\n")


def test_label_lines_hang_under_their_text() -> None:
    lines = wrap("  V)iew   games in progress; watch one, or join a game", 30)
    assert lines == ["  V)iew   games in progress;", "          watch one, or join a", "          game"]


def test_continuation_lines_are_joined_before_wrapping() -> None:
    text = "  B)egin  a new game: match length, colour, and an open seat, a named\n          opponent or the computer"
    assert wrap(text, 40) == [
        "  B)egin  a new game: match length,",
        "          colour, and an open seat, a",
        "          named opponent or the computer",
    ]


def test_key_lines_and_tables_stand_alone() -> None:
    text = "  D)ouble offers the cube before you roll.\n  T)ake or D)rop answers a double."
    assert wrap(text, 30) == [
        "  D)ouble offers the cube",
        "          before you roll.",
        "  T)ake or D)rop answers a",
        "          double.",  # under D)ouble's text: the list's column, not after 'T)ake'

    ]
    table = "      8 up      2 down      4 left      6 right\n      7 9 1 3 move diagonally"
    assert wrap(table, 40)[-1] == "      7 9 1 3 move diagonally"


def test_only_a_word_wider_than_the_line_is_split() -> None:
    assert wrap("a " + "x" * 12, 5) == ["a", "xxxxx", "xxxxx", "xx"]


def test_blank_lines_stay_and_tabs_expand() -> None:
    assert wrap("one\n\n\ttwo", 20) == ["one", "", "        two"]


def test_fit_marks_a_cut() -> None:
    assert fit("alexander", 20) == "alexander"
    assert fit("alexander", 5) == "alex~"


def test_pages_break_at_paragraphs() -> None:
    lines = [f"line {i}" for i in range(8)] + [""] + [f"more {i}" for i in range(5)]
    got = pages(lines, 10)
    assert got[0] == lines[:9] and got[1] == lines[9:]
    assert all(len(p) <= 10 for p in pages([f"{i}" for i in range(25)], 10))


def test_a_two_word_key_label_hangs_its_text_like_a_one_word_one() -> None:
    """At 40 columns the instructions' 'W)ho's online   every caller ...' went on at the line's
    own indent, under the label, while 'V)iew' and 'I)nstructions' hung theirs under the text."""
    lines = wrap("  W)ho's online   every caller connected now, and what they are doing", 37)
    assert lines[0] == "  W)ho's online   every caller"
    assert all(line.startswith(" " * 18) and line[18] != " " for line in lines[1:]), lines
    # Two words and two spaces in a sentence are no label: its next line is not indented.
    assert not wrap("Two words.  Then a sentence that is long enough to wrap here.", 30)[1].startswith(" ")


def test_an_indented_key_with_one_space_hangs_its_text_at_its_lists_column() -> None:
    """At 40 columns the instructions' 'D)ouble offers ...', 'W)ithdraw takes ...' and 'G)ive up
    offers ...' went on under their key, at the line's own indent, while the 'P)lay   rolls ...'
    beside them hung under their text: the keys were hard to pick out.  (G)ive up's A)ccept line,
    now a part of its text, hung at column 18 with this rule.)  Hung after the key's own word,
    'T)ake or X) drop' went on at column 8 and W)ithdraw's first line at 12 (its next, as
    written, at 10), where every entry around them goes on at 10."""
    lines = wrap(load_text("instructions"), 40)
    for key in ("D)ouble", "W)ithdraw", "R)eview", "T)ake"):
        at = next(i for i, line in enumerate(lines) if line.startswith("  " + key))
        rest = lines[at + 1 : next(i for i in range(at + 1, len(lines)) if lines[i][:10].strip())]
        assert rest and all(line.startswith(" " * 10) and line[10] != " " for line in rest), lines[at : at + 5]
    # A message that begins with a key, at no indent, is a sentence: its next line starts at 0.
    assert wrap("T)ake or X) drop: answer the double before anything else.", 30)[1][0] != " "


def test_shorten_keeps_what_fits_and_cuts_between_words():
    assert shorten("one two three", 20, 1, "... (N: all)") == "one two three"
    assert shorten("one two three", 22, 1, "... (N: all)", " (N: all)") == "one two three (N: all)"
    # Not room for the tail too: words go, and the cut says so.
    assert shorten("one two three four", 22, 1, "... (N: all)", " (N: all)") == "one two... (N: all)"
    assert shorten("alpha beta gamma delta", 11, 2, "...") == "alpha beta gamma delta"
    assert shorten("alpha beta gamma delta", 11, 1, "...") == "alpha..."
    # Not after a comma or colon: '#11: Opening roll,... (N: all)' read as a broken sentence.
    assert shorten("#11: Opening roll, after a tie: alice 3", 30, 1, "... (N: all)") == "#11: Opening roll... (N: all)"
    assert shorten("Score: alice 1, bob 0", 18, 1, "...") == "Score: alice 1..."


def test_a_short_aside_is_not_broken() -> None:
    """'N: page 1 (4' over 'of 4).' and 'not shown   (N' over 'changes it)' at 40 columns."""
    assert wrap("Notes from opponents: not shown   (N changes it)", 36) == [
        "Notes from opponents: not shown", "(N changes it)"]
    lines = wrap("Type a line number or a game number (#12) and Enter.  N: page 1 (4 of 4).  Q goes back.", 37)
    assert any(line.endswith("(4 of 4).") for line in lines), lines
    # A long one still breaks where it must.
    assert wrap("a (b) c (this is a very long aside that should break) d", 20)[1] == "very long aside that"


def test_a_text_cut_after_a_sentence_has_three_dots_not_four():
    """'and the match 1-0.... (? shows all)': the cut mark after the sentence's own full stop."""
    text = "alice wins a single game, 1 point, and the match 1-0. Ratings: alice 1510.0 (+10.0)."
    cut = shorten(text, 38, 2, "... (? shows all)")
    assert cut == "alice wins a single game, 1 point, and the match 1-0... (? shows all)"


def test_a_member_board_players_name_wider_than_the_line_breaks_before_its_tag() -> None:
    """'TwentyCharAliasN@BIGBO' over 'ARD won the match': the tag, which tells two players apart,
    was cut in two.  A word wider than the line with no '@' is still cut where the line ends."""
    assert wrap("TwentyCharAliasN@BIGBOARD won the match", 22) == [
        "TwentyCharAliasN", "@BIGBOARD won the", "match"]
    assert wrap("Cube 2 TwentyCharAliasN@BIGBOARD", 22) == ["Cube 2", "TwentyCharAliasN", "@BIGBOARD"]
    assert wrap("x" * 25, 22) == ["x" * 22, "xxx"]


def test_a_name_cut_for_a_column_keeps_its_board_s_tag() -> None:
    """'TwentyCharAliasN@' in a column of 17: the tag that tells two players apart was cut off; and
    'SixteenCharA~@TAG' lost the '~3' that told it from '~4', its cut mark read as a handle's own."""
    assert fit_name("TwentyCharAliasN@BIGBOARD", 17) == "Twenty..@BIGBOARD"
    # The number that tells a handle from another of the same alias stays, with the tag.
    assert fit_name("SixteenCharAli~3@TAG", 16) == "SixteenC..~3@TAG"
    assert fit_name("SixteenCharAli~4@TAG", 16) != fit_name("SixteenCharAli~3@TAG", 16)
    assert fit_name("SixteenCharAli~3", 12) == "SixteenC..~3"
    assert fit_name("TwentyCharAliasN@BIGBOARD", 25) == "TwentyCharAliasN@BIGBOARD"
    assert fit_name("TwentyCharAliasN", 10) == fit("TwentyCharAliasN", 10) == "TwentyCha~"
    assert fit_name("ab@BIGBOARD", 6) == "ab@BI~"  # no room for the tag: cut as any text
    # Room for the number and tag with one letter and one dot: 'Maximili~' had read as a handle.
    assert fit_name("Maximilian Ale~2@BETA", 9) == "M.~2@BETA"
    assert fit_name("Maximilian Ale~2@BETA", 10) == "M..~2@BETA"
    assert fit_name("Maximilian_Lon~2@ALPHA", 9) == "M~2@ALPHA"  # had been 'Maximili~' still
    # Two of one board alike at the start keep their last letters apart.
    assert fit_name("Maximilian_Schmi@ALPHA", 18) == "Maximil..hmi@ALPHA"
    assert fit_name("Maximilian_Schne@ALPHA", 18) == "Maximil..hne@ALPHA"
    assert fit_name("Maximilian_Lon~2@ALPHA", 8) == "Maximil~"  # no room for both: cut as any text
    # Two columns share the room: both whole when they fit, else the narrower keeps its own.
    assert shared(19, 25, 44) == (19, 25)
    assert shared(19, 25, 33) == (16, 17)
    assert shared(25, 10, 30) == (20, 10)


def test_a_key_label_stays_with_its_word() -> None:
    """'Answer the double first: T)ake or X)' over 'drop.': the key's label and its word parted."""
    text = "Answer the double first: T)ake or X) drop. ? lists the keys."
    assert wrap(text, 38) == ["Answer the double first: T)ake or", "X) drop. ? lists the keys."]
    assert " ".join(wrap(text, 38)).split() == text.split()


def test_a_word_wider_than_the_line_breaks_after_a_hyphen() -> None:
    """A long hyphenated word in a note was cut mid-part: '...expialidocious-wor' over 'ds!'."""
    word = "Supercalifragilisticexpialidocious-words!"
    assert wrap(word, 38) == ["Supercalifragilisticexpialidocious-", "words!"]
    assert wrap("a-" + "x" * 40, 38) == ["a-", "x" * 38, "xx"]


def test_shorten_whole_cuts_after_a_sentence_where_one_fits() -> None:
    text = "You win on a drop, 1 point. Score: ida 2, jack 0. Next is the Crawford game."
    assert shorten_whole(text, 40, 1, "... (N: all)") == "You win on a drop, 1 point... (N: all)"
    assert shorten_whole(text, 60, 1, "... (N: all)") == "You win on a drop, 1 point. Score: ida 2, jack 0... (N: all)"
    assert shorten_whole(text, 90, 1, "...", " (N: all)") == f"{text} (N: all)"
    # No sentence ends where it fits: cut between words, as shorten does.
    assert shorten_whole("jack rolled 5-3 and played 13/8 13/10.", 24, 1, "...") == "jack rolled 5-3 and..."


def test_a_sentence_keeps_written_notation_as_written() -> None:
    """'Bar/22 is 3 pips' had the move's own 'bar' capitalised, unlike everywhere it is written."""
    said = "bar/22 is 3 pips, which does not match the dice"
    assert sentence(said) == said + "."
    assert sentence("point 1 is blocked") == "Point 1 is blocked."


def test_a_number_ending_a_sentence_does_not_begin_a_line() -> None:
    """'Score: dave 2, carol' over '1. Next is the Crawford game: ...' read as a numbered item."""
    text = ("#1: dave wins a single game by resignation, 2 points. Score: dave 2, carol 1. Next is the "
            "Crawford game: no doubling in it. (N: all)")
    lines = wrap(text, 74)
    assert not any(re.match(r"\d+\. ", line) for line in lines), lines
    assert lines[0].endswith("Score: dave 2,"), lines
