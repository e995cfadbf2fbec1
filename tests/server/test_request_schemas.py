"""The create request's envelope is a declared model (server/live/requests.py): each
field wrong by type is answered naming the field and what it was given, in the
order a reader checks them (the game first), and options stay the game's."""

from __future__ import annotations

from typing import Any

import pytest

from peloton.server.errors import ApiError
from peloton.server.live.requests import check_create, creator_of

TWO = ["human", "human"]


def refusal(request: Any) -> ApiError:
    with pytest.raises(ApiError) as info:
        check_create(request)
    return info.value


@pytest.mark.parametrize(
    ("request_", "code", "words"),
    [
        ([], "bad_request", "a create request is a JSON object"),
        ({"game": 5, "seats": TWO}, "bad_options", "'game' must be a game's name, not 5"),
        ({"game": "nope", "seats": TWO, "solo": 2}, "bad_options", "unknown game 'nope'"),
        ({"options": [1], "seats": TWO}, "bad_options", "'options' must be an object of option values, not [1]"),
        ({}, "bad_options", "'seats' must be a list of seat kinds (human, random"),
        ({"seats": [1, 2]}, "bad_options", "one per seat, not [1, 2]"),
        ({"seats": TWO, "solo": 1}, "bad_options", "'solo' must be true or false, not 1"),
        ({"seats": TWO, "rated": "yes"}, "bad_options", "'rated' must be true or false, not 'yes'"),
        ({"seats": TWO, "wind": 3, "options": {"wind": 4}}, "bad_options", "given twice"),
        ({"seats": TWO, "colour": "red"}, "bad_options", "unknown option(s) 'colour'"),
    ],
)  # fmt: skip
def test_a_malformed_envelope_is_refused_naming_its_field(
    request_: Any, code: str, words: str
) -> None:
    refused = refusal(request_)
    assert refused.code == code and words in refused.message, refused.message


def test_options_at_the_top_level_are_still_options() -> None:
    created = check_create({"seats": TWO, "wind": "left", "rated": False})
    assert created.options["wind"] == "left" and created.rated is False


@pytest.mark.parametrize("creator", [5, {"seat": 1}, {"name": "Ada"}, ["A"]])
def test_a_malformed_creator_is_a_bad_request(creator: Any) -> None:
    with pytest.raises(ApiError) as info:
        creator_of({"creator": creator})
    assert info.value.code == "bad_request" and "'creator' is an object" in info.value.message


def test_a_creator_gives_a_seat_and_a_tidied_name() -> None:
    assert creator_of({"creator": {"seat": "A", "name": " Ada  L "}}) == ("A", "Ada L")
    assert creator_of({"seats": TWO}) is None
