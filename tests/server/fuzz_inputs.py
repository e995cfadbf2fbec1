"""What the fuzzing campaign of :mod:`.fuzzing` sends: hostile JSON values and
mutations of valid requests, and plans of WebSocket frames, drawn by Hypothesis
before they meet the server (where a frame needs a legal move, the seat's token or
its move count, a plan holds a placeholder, filled in when the frame is sent)."""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from typing import Any, Protocol
from urllib.parse import quote

from hypothesis import strategies as st


class SeatView(Protocol):
    """What a frame plan needs of a seat: its snapshot, moves played and token."""

    snapshot: dict[str, Any]
    moves: int
    token: str


# ---------------------------------------------------------------- JSON values


class Raw(str):
    """JSON text put as is into an encoded body (a huge integer, a deep nest)."""


def encode(value: Any) -> str:
    """JSON text of ``value``, with :class:`Raw` pieces verbatim and any string (lone
    surrogates included) escaped."""
    if isinstance(value, Raw):
        return str(value)
    if isinstance(value, dict):
        return "{" + ",".join(f"{encode(str(k))}:{encode(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list | tuple):
        return "[" + ",".join(encode(v) for v in value) + "]"
    return json.dumps(value)


ODD_TEXT = [
    "", " ", "\x00", "a\x00b", "\ud800", "\udfff", "Ada\ud800", "\u202e", "\ufeff", "\U0001f6b2", "\u0301",
    "..", "../../etc/passwd", "/etc/passwd", "%00", "%2e%2e%2f", "${x}", "{{x}}", "<script>", "'; DROP TABLE moves;--",
    "\n", "\r\n", "\t", "null", "NaN", "-0", "1e999", "LONG", "LONG-ACCENTED",
]  # fmt: skip
ODD_NUMBERS = [
    0,
    -1,
    1,
    2**31,
    2**63,
    -(2**63) - 1,
    2**64,
    10**20,
    1e308,
    -1e-308,
    0.5,
    True,
    False,
]


def _odd(text: str) -> str:
    # Long texts are made here, not listed: strategies' reprs stay short.
    return {"LONG": "x" * 300, "LONG-ACCENTED": "é" * 201}.get(text, text)


def texts() -> st.SearchStrategy[str]:
    return st.one_of(
        st.sampled_from(ODD_TEXT).map(_odd),
        st.text(st.characters(exclude_categories=()), max_size=12),
        st.text(max_size=40),
    )


def scalars() -> st.SearchStrategy[Any]:
    return st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-(2**70), max_value=2**70),
        st.sampled_from(ODD_NUMBERS),
        st.floats(allow_nan=False, allow_infinity=False),
        texts(),
        st.builds(lambda n: Raw("9" * n), st.integers(4301, 6000)),  # over int()'s limit
        st.sampled_from([Raw("NaN"), Raw("Infinity"), Raw("-Infinity"), Raw("1e999")]),
        st.builds(lambda n: Raw("[" * n + "]" * n), st.sampled_from([999, 5000, 60000])),
        st.builds(lambda n: Raw('{"a":' * n + "1" + "}" * n), st.sampled_from([999, 20000])),
    )


def values() -> st.SearchStrategy[Any]:
    return st.recursive(
        scalars(),
        lambda inner: st.one_of(
            st.lists(inner, max_size=4), st.dictionaries(texts(), inner, max_size=4)
        ),
        max_leaves=10,
    )


#: Strategies built once: building them is much slower than drawing from them.
TEXTS = texts()
VALUES = values()
ACTIONS = st.sampled_from(["set", "set", "del", "add", "nest"])
TENTH = st.integers(0, 9)
EDIT_COUNT = st.integers(1, 3)
KEY_PICK = st.integers(0, 2**16)


@st.composite
def mutated(draw: st.DrawFn, template: Any) -> Any:
    """``template`` (a JSON object) with a few keys changed, removed or added, or
    replaced whole."""
    if draw(TENTH) == 0:
        return draw(VALUES)
    if not isinstance(template, dict):
        return template
    out = copy.deepcopy(template)
    for _ in range(draw(EDIT_COUNT)):
        keys = list(out)
        action = draw(ACTIONS)
        if action == "add" or not keys:
            out[draw(TEXTS)] = draw(VALUES)
            continue
        key = keys[draw(KEY_PICK) % len(keys)]
        if action == "del":
            del out[key]
        elif action == "nest" and isinstance(out[key], dict):
            out[key] = draw(mutated(out[key]))
        else:
            out[key] = draw(VALUES)
    return out


def raw_bodies() -> st.SearchStrategy[bytes]:
    return st.one_of(
        st.binary(max_size=64),
        st.sampled_from(
            [b"", b"{", b"[]", b"null", b"\xff\xfe", b'{"a": 1,}', b"{'a': 1}", b"\x00" * 10]
        ),
        st.builds(lambda t: t.encode("utf-8", "surrogatepass"), TEXTS),
    )


def path_part() -> st.SearchStrategy[str]:
    """A path segment, percent-encoded from any text (lone surrogates as their bytes)."""
    return st.one_of(
        st.sampled_from(["", "nosuchtable", "..", "%2e%2e", "LONG", "%00", "a%2Fb", "%ff"]).map(
            _odd
        ),
        st.builds(lambda t: quote(t.encode("utf-8", "surrogatepass"), safe=""), TEXTS),
    )


# ---------------------------------------------------------------- frame plans


class Placeholder(str):
    """Filled in when a frame is sent: ``LEGAL`` (a legal move, or a plausible text),
    ``INDEX`` (the moves played), ``TOKEN`` (the seat's token)."""


LEGAL, INDEX, TOKEN = Placeholder("LEGAL"), Placeholder("INDEX"), Placeholder("TOKEN")
PICK = st.integers(0, 2**16)


def legal_move(snapshot: dict[str, Any], pick: int) -> str | None:
    """The ``pick``-th legal move of a snapshot (modulo their number), or None."""
    placement = snapshot.get("placement")
    if placement:
        riders, squares = placement["riders"], placement["squares"]
        return f"{riders[pick % len(riders)]}@{squares[(pick // 7) % len(squares)]}"
    legal = snapshot.get("legal") or []
    if not legal:
        return None
    choice = legal[pick % len(legal)]
    return str(choice["text"] if isinstance(choice, dict) else choice)


EDITS = st.tuples(
    st.integers(0, 2**16),
    st.sampled_from(["insert", "delete", "replace", "case", "repeat", "pad"]),
    st.one_of(
        st.sampled_from(list("@-=:+#?,0123456789abcdefgABCDEFGRS ")),
        st.characters(exclude_categories=()),
    ),
    st.integers(2, 50),
)


def edit(text: str, edits: list[tuple[int, str, str, int]]) -> str:
    """``text`` after a few character edits."""
    for where, action, char, times in edits:
        at = where % (len(text) + 1)
        if action == "insert":
            text = text[:at] + char + text[at:]
        elif action == "delete":
            text = text[:at] + text[at + 1 :]
        elif action == "replace":
            text = text[:at] + char + text[at + 1 :]
        elif action == "case":
            text = text.swapcase()
        elif action == "repeat":
            text = text * times
        else:
            text = f" {text}\t"
    return text


@dataclass(frozen=True)
class MutatedMove:
    """A legal move (picked by ``pick``) with ``edits``, and maybe an ``index``."""

    pick: int
    edits: list[tuple[int, str, str, int]]
    index: Any


def mutated_moves() -> st.SearchStrategy[MutatedMove]:
    indexes = st.one_of(
        st.none(), st.just(INDEX), st.integers(-3, 10**6), st.sampled_from(ODD_NUMBERS)
    )
    return st.builds(MutatedMove, PICK, st.lists(EDITS, min_size=1, max_size=3), indexes)


@dataclass(frozen=True)
class Template:
    """A JSON message with placeholders, and the ``pick`` of its legal move."""

    message: Any
    pick: int


def move_fields() -> st.SearchStrategy[Template]:
    return st.builds(Template, mutated({"type": "move", "move": LEGAL, "index": INDEX}), PICK)


def hellos() -> st.SearchStrategy[Template]:
    token = st.one_of(st.just(TOKEN), st.none(), TEXTS, VALUES)
    return st.builds(
        Template,
        token.flatmap(
            lambda t: st.one_of(
                st.just({"type": "hello", "token": t}), mutated({"type": "hello", "token": t})
            )
        ),
        PICK,
    )


def junk_frames() -> st.SearchStrategy[Any]:
    return st.one_of(
        raw_bodies(),
        st.builds(encode, VALUES),
        st.builds(lambda t: encode({"type": t}), TEXTS),
        st.sampled_from([4097, 70 * 1024]).map(
            lambda n: "x" * n
        ),  # over 4096 bytes; over 64 KiB (1009)
        st.just(5000).map(lambda n: encode({"type": "move", "move": "x" * n})),
    )


def fill(plan: Any, seat: SeatView) -> str | bytes:
    """The frame of a plan, for ``seat`` as it is now."""
    if isinstance(plan, MutatedMove):
        text = edit(legal_move(seat.snapshot, plan.pick) or "AD1@a1", plan.edits)
        message: dict[str, Any] = {"type": "move", "move": text}
        if plan.index is not None:
            message["index"] = seat.moves if isinstance(plan.index, Placeholder) else plan.index
        return encode(message)
    if isinstance(plan, Template):
        legal = legal_move(seat.snapshot, plan.pick) or "x"

        def put(value: Any) -> Any:
            if isinstance(value, Placeholder):
                return {LEGAL: legal, INDEX: seat.moves, TOKEN: seat.token}[value]
            if isinstance(value, dict):
                return {k: put(v) for k, v in value.items()}
            if isinstance(value, list):
                return [put(v) for v in value]
            return value

        return encode(put(plan.message))
    if isinstance(plan, str):
        # A text no UTF-8 holds (a lone surrogate) cannot be a text frame: the client
        # library fails to encode it and drops its own connection. Its bytes go as a
        # binary frame instead, which the server must answer like any other.
        try:
            plan.encode("utf-8")
        except UnicodeEncodeError:
            return plan.encode("utf-8", "surrogatepass")
        return plan
    return plan if isinstance(plan, bytes) else encode(plan)
