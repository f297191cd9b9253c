"""The parser: what it accepts, and a line-numbered message for everything it refuses."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcts_core import MAX_PLAYOUTS, ParseError, decode_text, format_playouts, parse_playouts
from conftest import STATEMENT_EXAMPLE


def test_statement_example_parses_with_header_c():
    parsed = parse_playouts(STATEMENT_EXAMPLE)
    assert parsed.words == ("baa", "ab", "bbb")
    assert parsed.scores == (30.0, 20.0, 4.0)
    assert parsed.c == 0.1
    assert parsed.lines == (2, 3, 4)


def test_headerless_list_has_no_c():
    parsed = parse_playouts("baa 30\nab 20\n")
    assert parsed.words == ("baa", "ab") and parsed.c is None


def test_crlf_blank_lines_and_comments_are_tolerated_and_lines_keep_their_numbers():
    parsed = parse_playouts("# my bot\r\n2 1.5\r\n\r\n  # note\r\nab -3.25\r\n\r\nb 1e1\r\n")
    assert parsed.words == ("ab", "b")
    assert parsed.scores == (-3.25, 10.0)
    assert parsed.lines == (5, 7)
    assert parsed.c == 1.5


def test_any_printable_character_is_a_move():
    parsed = parse_playouts("2 1\n0123 1\n<&\"'\\ 2\n")
    assert parsed.words == ("0123", "<&\"'\\")


@pytest.mark.parametrize(
    "text, line, fragment",
    [
        ("", 1, "no playouts"),
        ("# only a comment\n\n", 1, "no playouts"),
        ("2 0.1\nab 1\n", 1, "N = 2 playouts but 1"),
        ("1 0.1\nab 1\nb 2\n", 1, "N = 1 playouts but 2"),
        ("-2 0.1\nab 1\nb 2\n", 1, "must not be negative"),
        ("0 0.1\n", 1, "N = 0"),
        ("1 -0.5\nab 1\n", 1, "C must be >= 0"),
        ("1 nan\nab 1\n", 1, "C must be a finite number"),
        ("1 inf\nab 1\n", 1, "C must be a finite number"),
        ("1 x\nab 1\n", 1, "C must be a finite number"),
        ("2 0.1\nab 1\nab 2 3\n", 3, "expected 2 fields"),
        ("2 0.1\nab 1\nab\n", 3, "expected 2 fields"),
        ("1 0.1\nab ten\n", 2, "score must be a number"),
        ("1 0.1\nab nan\n", 2, "score must be finite"),
        ("1 0.1\nab -inf\n", 2, "score must be finite"),
        ("1 0.1\nab 1e999\n", 2, "score must be finite"),
        ("1 0.1\nab 1_0\n", 2, "score must be a number"),
        ("1 0.1\na\x07b 1\n", 2, "not a printable character"),
        ("1 0.1\n" + "a" * 1001 + " 1\n", 2, "at most 1,000"),
    ],
)
def test_bad_input_names_the_line_and_the_problem(text, line, fragment):
    with pytest.raises(ParseError) as caught:
        parse_playouts(text)
    assert caught.value.line == line
    assert fragment in caught.value.message
    assert str(caught.value).startswith(f"line {line}: ")


def test_size_limit_is_an_error_not_a_crash():
    with pytest.raises(ParseError, match="at most 3 are supported") as caught:
        parse_playouts("a 1\nb 1\nc 1\nd 1\n", max_playouts=3)
    assert caught.value.line == 4
    with pytest.raises(ParseError, match="too large"):
        parse_playouts(f"{MAX_PLAYOUTS + 1} 1\na 1\n")


def test_undecodable_bytes_name_their_line():
    with pytest.raises(ParseError, match="not valid UTF-8") as caught:
        decode_text(b"2 1\nab 1\nb\xff 2\n")
    assert caught.value.line == 3
    assert decode_text("\ufeff1 1\nab 1\n".encode()) == "1 1\nab 1\n"


def test_format_round_trips():
    parsed = parse_playouts("2 0.25\nab -1.5\nb 3\n")
    assert parse_playouts(format_playouts(parsed)) == parsed


@settings(max_examples=400, deadline=None)
@given(st.text(max_size=200))
def test_arbitrary_text_raises_only_parse_error(text):
    try:
        parse_playouts(text)
    except ParseError as error:
        assert error.line >= 1


_token = st.one_of(
    st.sampled_from(["3", "0", "-1", "0.1", "1e9", "nan", "inf", "-0", "ab", "baa", "#", "x y"]),
    st.text(alphabet="ab01 .-e#\t\r", max_size=6),
)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.lists(_token, max_size=4).map(" ".join), max_size=8).map("\n".join))
def test_near_miss_inputs_raise_only_parse_error(text):
    try:
        parsed = parse_playouts(text)
    except ParseError:
        return
    assert len(parsed.words) == len(parsed.scores) >= 1
