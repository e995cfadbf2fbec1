"""A solo table's page shows the solver's best line for its course."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from peloton.games.mindcycling.solver.examples import C8

from .conftest import ARTIFACTS, Server, open_page


def test_a_solo_table_shows_the_solvers_proven_optimum(server: Server, new_context) -> None:
    table_id = server.create(solo=True, course=C8.to_dict(), seats=["human"])
    page = open_page(new_context(), f"{server.url}/table/{table_id}")
    panel = page.get_by_test_id("solver")
    expect(panel).to_be_visible()
    expect(panel).to_have_attribute("data-status", "done", timeout=90_000)
    expect(panel).to_have_attribute("data-proven", "true")
    expect(page.get_by_test_id("solver-score")).to_contain_text("2 rounds")
    expect(page.get_by_test_id("solver-score")).to_contain_text("proven optimal")
    # The panel says how long the solve took (a small course: well under a minute).
    expect(page.get_by_test_id("solver-time")).to_have_text(
        re.compile(r"^Solved in \d+(\.\d)? s \([\d,]+ positions searched\)\.$")
    )
    page.get_by_test_id("solver-line").locator("summary").click()
    expect(page.get_by_test_id("solver-line").locator("li")).to_have_count(3)
    page.screenshot(path=str(ARTIFACTS / "solo-solver.png"), full_page=True)


def test_a_race_table_has_no_solver_panel(server: Server, new_context) -> None:
    table_id = server.create(seats=["human", "greedy"])
    page = open_page(new_context(), f"{server.url}/table/{table_id}")
    expect(page.get_by_test_id("table-status")).to_have_text("open")
    expect(page.get_by_test_id("solver")).to_be_hidden()
