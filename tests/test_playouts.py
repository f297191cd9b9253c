"""The parser: what it accepts, and a line-numbered message for everything it refuses."""

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcts_core import MAX_PLAYOUTS, ParseError, decode_text, format_playouts, parse_playouts
from mcts_core.inputs.examples import STATEMENT_EXAMPLE
from mcts_core.model.playouts import path_json


def test_statement_example_parses_with_header_c():
    parsed = parse_playouts(STATEMENT_EXAMPLE)
    assert parsed.words == ("baa", "ab", "bbb")
    assert tuple(parsed.scores) == (30.0, 20.0, 4.0)
    assert parsed.c == 0.1
    assert tuple(parsed.lines) == (2, 3, 4)


def test_headerless_list_has_no_c():
    parsed = parse_playouts("baa 30\nab 20\n")
    assert parsed.words == ("baa", "ab") and parsed.c is None


def test_crlf_blank_lines_and_comments_are_tolerated_and_lines_keep_their_numbers():
    parsed = parse_playouts("# my bot\r\n2 1.5\r\n\r\n  # note\r\nab -3.25\r\n\r\nb 1e1\r\n")
    assert parsed.words == ("ab", "b")
    assert tuple(parsed.scores) == (-3.25, 10.0)
    assert tuple(parsed.lines) == (5, 7)
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
        ("1 -0.5\nab 1\n", 1, "C must be a finite number >= 0"),
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
    with pytest.raises(ParseError) as caught:
        decode_text(b"2 1\nab 1\n\xc3\xa9\xff 2\n")  # é in UTF-8, then a byte that is not
    assert (caught.value.line, caught.value.message) == (3, "the input is not UTF-8 text (byte 0xff at column 2)")
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


# --- The fast path for well-formed input: same Playouts as the line-by-line path, or it steps aside
# so that every error still comes from the line-by-line path.

import random  # noqa: E402

from mcts_core.inputs.formats import text as playouts_module  # noqa: E402


def outcome(parse, text, **limits):
    try:
        return parse(text, **limits)
    except ParseError as error:
        return ("error", error.line, error.message)


def _plain_log(rng, count, header=True):
    lines = [f"{count} {rng.choice(['0', '1.4', '0.25', '1e2'])}"] if header else []
    for _ in range(count):
        word = "".join(rng.choices("abcdefgh0123<&'\"\\", k=rng.randint(1, 12)))
        score = rng.choice([str(round(rng.uniform(-100, 100), 2)), str(rng.randint(-9, 9)), "1e3", "-0"])
        lines.append(f"{word} {score}")
    return lines


def test_fast_path_takes_plain_input_and_gives_the_line_by_line_result():
    rng = random.Random(3)
    for header in (True, False):
        for end in ("\n", "\r\n"):
            lines = _plain_log(rng, 50, header)
            for text in (end.join(lines) + end, end.join(lines)):
                fast = playouts_module._parse_plain(text, MAX_PLAYOUTS)
                assert fast is not None
                assert fast == playouts_module._parse_lines(text, MAX_PLAYOUTS)
                assert parse_playouts(text) == fast


@pytest.mark.parametrize(
    "text",
    [
        "# c\n1 1\na 1\n",
        "1 1\n\na 1\n",
        "1 1\na  1\n",
        "1 1\na\t1\n",
        "1 1\n a 1\n",
        "1 1\na 1 \n",
        "1 1\na 1\r",
        "1 1\nñ 1\n",
        "1 1\na_b 1\n",
        "2 1\na 1\n",
        "1 1\nab 1\nb\n",
        "a\nb 1 2\n",
    ],
)
def test_fast_path_steps_aside_for_anything_unusual(text):
    assert playouts_module._parse_plain(text, MAX_PLAYOUTS) is None
    assert outcome(parse_playouts, text) == outcome(playouts_module._parse_lines, text, max_playouts=MAX_PLAYOUTS)


_piece = st.sampled_from(
    ["a", "ab", "b0", "3", "-1", "0.5", "1e9", "1e999", "nan", "inf", "-0", "x_1", "#", "ñ", "\x07", "2", "1"]
)
_gap = st.sampled_from([" ", " ", " ", "  ", "\t", ""])
_line = st.lists(_piece, min_size=0, max_size=3).flatmap(
    lambda pieces: st.lists(_gap, min_size=len(pieces), max_size=len(pieces)).map(
        lambda gaps: "".join(p + g for p, g in zip(pieces, gaps)).rstrip(" ") if pieces else ""
    )
)


@settings(max_examples=600, deadline=None)
@given(
    st.lists(_line, min_size=1, max_size=8),
    st.sampled_from(["\n", "\r\n", "\r"]),
    st.booleans(),
    st.sampled_from([MAX_PLAYOUTS, 2]),
)
def test_fast_path_and_line_by_line_path_agree_on_random_near_plain_input(lines, end, final, limit):
    text = end.join(lines) + (end if final else "")
    want = outcome(playouts_module._parse_lines, text, max_playouts=limit)
    assert outcome(parse_playouts, text, max_playouts=limit) == want
    fast = playouts_module._parse_plain(text, limit)
    assert fast is None or fast == want


@pytest.mark.parametrize("seed", range(40))
def test_fast_path_agrees_with_one_line_broken(seed):
    rng = random.Random(seed)
    lines = _plain_log(rng, 20, header=rng.random() < 0.7)
    where = rng.randrange(len(lines))
    lines[where] = rng.choice(["ab", "ab 1 2", "ab x", "ab nan", "a\x01 1", "", "  ", "# hi", "ab 1_0", "0 1"])
    text = "\n".join(lines) + "\n"
    want = outcome(playouts_module._parse_lines, text, max_playouts=MAX_PLAYOUTS)
    assert outcome(parse_playouts, text) == want


# --- The columnar reader (pyarrow's CSV reader) that the fast path uses for large inputs: the same
# Playouts, or it steps aside. Made to run on small inputs by lowering its threshold.


@pytest.fixture
def columnar(monkeypatch):
    monkeypatch.setattr(playouts_module, "COLUMNAR_BYTES", 0)


def test_columnar_reader_gives_the_line_by_line_result(columnar):
    rng = random.Random(4)
    for header in (True, False):
        for end in ("\n", "\r\n"):
            lines = _plain_log(rng, 80, header)
            text = end.join(lines) + end
            fast = playouts_module._parse_plain(text, MAX_PLAYOUTS)
            assert fast is not None and fast == playouts_module._parse_lines(text, MAX_PLAYOUTS)


@settings(max_examples=600, deadline=None)
@given(
    st.lists(_line, min_size=1, max_size=8),
    st.sampled_from(["\n", "\r\n"]),
    st.booleans(),
    st.sampled_from([MAX_PLAYOUTS, 2]),
)
def test_columnar_reader_and_line_by_line_path_agree_on_random_near_plain_input(lines, end, final, limit):
    text = end.join(lines) + (end if final else "")
    want = outcome(playouts_module._parse_lines, text, max_playouts=limit)
    original = playouts_module.COLUMNAR_BYTES
    playouts_module.COLUMNAR_BYTES = 0
    try:
        assert outcome(parse_playouts, text, max_playouts=limit) == want
    finally:
        playouts_module.COLUMNAR_BYTES = original


_number_text = st.text(alphabet="0123456789+-.eE", min_size=1, max_size=12)


@settings(max_examples=1500, deadline=None)
@given(st.lists(_number_text, min_size=1, max_size=5))
def test_columnar_scores_are_pythons_floats_or_the_line_reader_decides(scores):
    text = "".join(f"a {score}\n" for score in scores)
    want = outcome(playouts_module._parse_lines, text, max_playouts=MAX_PLAYOUTS)
    original = playouts_module.COLUMNAR_BYTES
    playouts_module.COLUMNAR_BYTES = 0
    try:
        got = outcome(parse_playouts, text)
    finally:
        playouts_module.COLUMNAR_BYTES = original
    assert got == want
    if not isinstance(want, tuple):  # parsed: the same floats, down to the sign of zero
        assert [math.copysign(1, x) for x in got.returns] == [math.copysign(1, x) for x in want.returns]


def test_columnar_reader_keeps_quotes_and_na_as_moves(columnar):
    text = '2 1\n"a" 1\nNA 2\n'
    fast = playouts_module._parse_plain(text, MAX_PLAYOUTS)
    assert fast is not None and fast.words == ('"a"', "NA") and tuple(fast.scores) == (1.0, 2.0)


# --- Large inputs are read a block at a time (lines, pyarrow blocks, joined words): the same Playouts
# as one pass over the whole text. Blocks are made tiny so that small inputs cross many boundaries.

from mcts_core.inputs.formats import lines as lines_module  # noqa: E402
from mcts_core.inputs.formats import text_columns  # noqa: E402


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab\n\r\x0b\x1c\u2028 ", max_size=60), st.integers(1, 8))
def test_lines_read_in_blocks_are_splitlines(text, block):
    original = lines_module.BLOCK
    lines_module.BLOCK = block
    try:
        got = list(lines_module.numbered_lines(text))
    finally:
        lines_module.BLOCK = original
    assert got == list(enumerate(text.splitlines(), start=1))


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=40).map(lambda data: data.replace(b"\r", b"")), st.integers(0, 5), st.integers(1, 8))
def test_line_pieces_cover_the_data_in_whole_lines(data, start, size):
    pieces = list(lines_module.line_pieces(data, start, size))
    assert b"".join(data[begin:end] for begin, end in pieces) == data[start:]
    assert all(data[end - 1 : end] == b"\n" for _, end in pieces[:-1])
    assert all(end - begin >= size for begin, end in pieces[:-1])


def test_columnar_reader_in_many_blocks_gives_the_line_by_line_result(columnar, monkeypatch):
    monkeypatch.setattr(text_columns, "PIECE_BYTES", 256)
    monkeypatch.setattr(text_columns, "BLOCK_BYTES", 64)
    rng = random.Random(5)
    for header in (True, False):
        text = "\n".join(_plain_log(rng, 300, header)) + "\n"
        fast = playouts_module._parse_plain(text, MAX_PLAYOUTS)
        assert fast is not None and fast == playouts_module._parse_lines(text, MAX_PLAYOUTS)


def test_moves_beyond_ascii_are_numbered_by_character_across_many_blocks():
    rng = random.Random(6)
    alphabet = "aé€😀b" + "".join(chr(0x4E00 + i) for i in range(300))  # more than 256 distinct moves
    words = ["".join(rng.choices(alphabet, k=rng.randint(1, 9))) for _ in range(50_000)]  # past numpy's threshold
    text = "#players 2\n" + "".join(f"{word} {i % 7 - 3}\n" for i, word in enumerate(words))
    parsed = parse_playouts(text)
    assert parsed.moves == tuple(sorted(set("".join(words))))
    assert parsed.words == tuple(words)
    assert list(parsed.returns[:6]) == [-3.0, 3.0, -2.0, 2.0, -1.0, 1.0] and tuple(parsed.lines[:2]) == (2, 3)


@given(st.lists(st.text(max_size=6), max_size=5))
def test_path_json_is_compact_ascii_json_of_the_moves(moves):
    # The picture's data-path and the browser's keys: plain moves are joined directly, the rest by json.
    assert path_json(moves) == json.dumps(moves, separators=(",", ":"))
    assert json.loads(path_json(moves)) == moves
