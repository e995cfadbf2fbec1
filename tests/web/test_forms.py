"""The create form is built from GET /api/games: every game's options (defaults,
choices), seat range, solo version and bots, with nothing of a game written in the
lobby; a Pistard table is created from it."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from .conftest import Server, open_page
from .helpers import HeldAnswers


def field_value(page: Page, option: dict[str, Any]) -> None:
    """The option's field shows its default (a list as ``a, b``), and a choice option
    offers exactly its choices. An option whose default is null (the game decides)
    has no field, or one left at "" that sends nothing, a choice option then offering
    "default" before its choices."""
    field = page.get_by_test_id(f"option-{option['name']}")
    default = option["default"]
    if default is None:
        if field.count():
            expect(field).to_have_value("")
            if "choices" in option:
                assert field.locator("option").all_inner_texts() == [
                    "default",
                    *map(str, option["choices"]),
                ]
        return
    if isinstance(default, bool):
        expect(field).to_be_checked(checked=default)
        return
    shown = ", ".join(map(str, default)) if isinstance(default, list) else str(default)
    expect(field).to_have_value(shown)
    if "choices" in option:
        assert field.locator("option").all_inner_texts() == [str(c) for c in option["choices"]]


def test_the_lobby_builds_every_games_form_from_the_games_list(server: Server, new_context) -> None:
    games = server.get("/api/games")["games"]
    page = open_page(new_context(), server.url + "/")
    select = page.get_by_test_id("game-select")
    expect(select.locator("option")).to_have_count(len(games))
    assert select.locator("option").all_inner_texts() == [g["title"] for g in games]
    for game in games:
        select.select_option(game["name"])
        expect(page.get_by_test_id("create-form")).to_have_attribute("data-game", game["name"])
        for option in game["options"]:
            if option["name"] == "players":
                continue
            if option["name"] == "course" and game["courses"]:
                courses = server.get(f"/api/courses?game={game['name']}")["courses"]
                chosen = option["default"] is None  # "default (the game chooses)" comes first
                expect(page.get_by_test_id("course-select").locator("option")).to_have_count(
                    len(courses) + chosen
                )
                expect(page.get_by_test_id("course-select")).to_have_value(option["default"] or "")
                continue
            field_value(page, option)
        seats = game["seats"]
        low = max(2, seats["min"]) if game["solo"] else seats["min"]
        if seats["min"] != seats["max"]:
            counts = page.get_by_test_id("team-count").locator("option").all_inner_texts()
            assert counts == [str(n) for n in range(low, seats["max"] + 1)]
        expect(page.get_by_test_id("solo")).to_be_visible(visible=game["solo"])
        kinds = (
            page.get_by_test_id("seat-kind")
            .first.locator("option")
            .evaluate_all("os => os.map(o => o.value)")
        )
        assert set(kinds) == {"human", *game["bots"]} - {"mcts"}
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_pistard_table_is_created_from_its_generic_form(server: Server, new_context) -> None:
    track = next(g for g in server.get("/api/games")["games"] if g["name"] == "pistard")
    page = open_page(new_context(), server.url + "/")
    page.get_by_test_id("game-select").select_option("pistard")
    page.get_by_test_id("option-length").fill("24")
    bonus = next(
        c
        for c in next(o for o in track["options"] if o["name"] == "bonus")["choices"]
        if c != "colour"
    )
    page.get_by_test_id("option-bonus").select_option(bonus)
    page.get_by_test_id("option-target").fill("5")
    page.get_by_test_id("team-count").select_option("3")
    expect(page.get_by_test_id("seat-kind")).to_have_count(3)
    page.locator('[data-testid="seat-kind"][data-seat="C"]').select_option("random")
    page.get_by_test_id("creator-name").fill("Pia")
    page.get_by_test_id("create-table").click()
    page.wait_for_url("**/table/*")
    detail = server.table(page.url.rsplit("/", 1)[1])
    assert detail["game"] == "pistard"
    assert {k: detail["options"][k] for k in ("players", "length", "bonus", "target")} == {
        "players": 3, "length": 24, "bonus": bonus, "target": 5,
    }  # fmt: skip
    assert [s["kind"] for s in detail["seats"]] == ["human", "greedy", "random"]
    expect(page.get_by_test_id("table-subtitle")).to_contain_text("length 24")
    assert page.errors == []  # type: ignore[attr-defined]


def test_the_solo_game_takes_its_options_from_the_games_list(server: Server, new_context) -> None:
    game = next(g for g in server.get("/api/games")["games"] if g["solo"])
    page = open_page(new_context(), server.url + "/")
    page.get_by_test_id("game-select").select_option(game["name"])
    page.get_by_test_id("solo").check()
    expect(page.get_by_test_id("seat-kind")).to_have_count(1)
    expect(page.get_by_test_id("team-count")).to_be_hidden()
    expect(page.get_by_test_id("course-select")).to_have_value(game["solo_options"]["course"])
    page.get_by_test_id("solo").uncheck()
    defaults = {o["name"]: o["default"] for o in game["options"]}
    expect(page.get_by_test_id("course-select")).to_have_value(defaults["course"])
    expect(page.get_by_test_id("team-count")).to_be_visible()
    assert page.errors == []  # type: ignore[attr-defined]


def test_every_game_the_server_hosts_has_a_view(server: Server, new_context) -> None:
    """views.js lists a view for each game of GET /api/games, each a GameView."""
    page = open_page(new_context(), server.url + "/")
    listed = page.evaluate(
        """async () => {
            const { VIEWS } = await import("/static/js/views.js");
            const { GameView } = await import("/static/js/gameview.js");
            return Object.entries(VIEWS).filter(([, View]) => View.prototype instanceof GameView).map(([name]) => name);
        }"""
    )
    assert sorted(listed) == sorted(g["name"] for g in server.get("/api/games")["games"])


def test_a_game_chosen_while_the_first_games_courses_load_keeps_its_typed_choices(
    server: Server, new_context
) -> None:
    """The lobby first draws the first game's form, which waits for that game's
    courses; a player who meanwhile picks Pistard and types a length keeps it when
    those courses arrive (they drew the form again over it: a CI failure)."""
    ctx = new_context()
    held = HeldAnswers(ctx, "**/api/courses*")
    with ctx.expect_event("request", lambda request: "/api/courses" in request.url):
        page = open_page(ctx, server.url + "/")
    page.get_by_test_id("game-select").select_option("pistard")
    page.get_by_test_id("option-length").fill("24")
    held.release(page)
    expect(page.get_by_test_id("option-length")).to_have_value("24")
    page.get_by_test_id("creator-name").fill("Pia")
    page.get_by_test_id("create-table").click()
    page.wait_for_url("**/table/*")
    assert server.table(page.url.rsplit("/", 1)[1])["options"]["length"] == 24
    assert page.errors == []  # type: ignore[attr-defined]
