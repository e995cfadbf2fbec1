"""``peloton simulate --ray``: on a real local Ray, the printed report and the
``--out`` files are the same, byte for byte, as with ``--jobs 2`` for the same seed,
whatever the game and the kind of run; without Ray, or with an address where no
cluster answers, a clear error; and Ray is imported only by a run that asks for it.

The in-process runs share one local Ray (started once for this module, as a program
that already runs Ray would: ``--ray`` then uses it); the subprocess run starts its
own, as ``peloton simulate --ray`` does from a shell."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from peloton.analysis.ray_pool import (
    MAX_CHUNK,
    RayCluster,
    chunks,
    endpoint,
    in_order,
    play_chunk,
    ray_map,
)
from peloton.analysis.tournament import Tournament, play_game

from .helpers import cli

SHORT = ("--course", "short", "--riders", "3")


@pytest.fixture(scope="module")
def local_ray() -> Iterator[Any]:
    """One local Ray of two CPUs for the module's runs."""
    import ray

    ray.init(num_cpus=2, include_dashboard=False, logging_level=logging.ERROR, log_to_driver=False)
    yield ray
    ray.shutdown()


def same_as_two_jobs(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, out: str, *argv: str
) -> None:
    """Run ``simulate *argv`` with ``--jobs 2`` and with ``--ray``, each writing
    ``--out`` to its own FILE; assert the same output, byte for byte."""
    printed, written = [], []
    for name, flags in (("jobs", ("--jobs", "2")), ("ray", ("--ray",))):
        path = tmp_path / name / out
        path.parent.mkdir(parents=True)
        code, stdout, stderr = cli(capsys, *argv, *flags, "--out", str(path))
        assert code == 0, stderr
        # The one line that names the file differs by the file's name only.
        printed.append(stdout.replace(str(path), "OUT"))
        written.append(path.read_bytes())
    assert printed[0] == printed[1]
    assert written[0] == written[1]
    assert printed[0].strip() and written[0].strip()


def test_a_mind_cycling_tournament_on_ray_is_the_same_as_on_two_processes(
    local_ray: Any, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    same_as_two_jobs(capsys, tmp_path, "r.json", "--bots", "greedy,random,easy", "--games", "6",
                     "--swap", "--seed", "5", *SHORT)  # fmt: skip


def test_a_mind_twist_match_on_ray_is_the_same_as_on_two_processes(
    local_ray: Any, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    same_as_two_jobs(capsys, tmp_path, "r.json", "--game", "mind-twist", "--bots",
                     "optimal,random", "--games", "8", "--swap", "--seed", "2")  # fmt: skip


def test_a_cyclo_stage_race_and_competition_on_ray_are_the_same_as_on_two_processes(
    local_ray: Any, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    same_as_two_jobs(capsys, tmp_path / "stage", "r.json", "--game", "cyclo", "--bots",
                     "greedy,random", "--games", "3", "--seed", "7", "--swap",
                     "--stage-race", "itt:prologue")  # fmt: skip
    same_as_two_jobs(capsys, tmp_path / "pursuit", "r.csv", "--game", "cyclo", "--bots",
                     "greedy,random", "--games", "3", "--seed", "7",
                     "--competition", "pursuit-series")  # fmt: skip


def test_ray_jobs_caps_the_games_at_once_and_changes_no_result(
    local_ray: Any, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    argv = ("--game", "pistard", "--bots", "greedy,random,random", "--games", "5", "--seed", "4")
    runs = []
    for flags in (("--jobs", "2"), ("--ray", "--jobs", "1")):
        code, stdout, stderr = cli(capsys, *argv, *flags)
        assert code == 0, stderr
        runs.append(stdout)
    assert runs[0] == runs[1]


def test_a_game_that_fails_in_a_worker_stops_the_run_with_its_own_error(
    local_ray: Any, tmp_path: Path
) -> None:
    """The records directory goes away after the run was checked: the worker's
    ``FileNotFoundError`` comes back as itself, not wrapped in Ray's error."""
    gone = Tournament(("greedy", "random"), games=3, course="short", riders=3,
                      records=tmp_path / "gone")  # fmt: skip
    with pytest.raises(FileNotFoundError, match="gone") as raised:
        list(ray_map(partial(play_game, gone), gone.games, RayCluster()))
    assert type(raised.value) is FileNotFoundError


def test_the_command_starts_its_own_local_ray_for_the_run(tmp_path: Path) -> None:
    """From a shell, ``--ray`` starts a local Ray, plays on it and stops it."""
    argv = ["--game", "pistard", "--bots", "greedy,random", "--games", "4", "--seed", "9"]
    env = {**os.environ, "COLUMNS": "100"}
    env.pop("RAY_ADDRESS", None)
    outs = []
    for flags in (["--jobs", "2"], ["--ray", "--jobs", "2"]):
        done = subprocess.run(
            [sys.executable, "-m", "peloton", "simulate", *argv, *flags],
            capture_output=True,
            text=True,
            env=env,
            cwd=tmp_path,
            timeout=300,
        )
        assert done.returncode == 0, done.stderr
        outs.append(done.stdout)
    assert outs[0] == outs[1] and "greedy" in outs[0]


def test_without_ray_the_flag_says_how_to_install_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now fails, as uninstalled
    code, out, err = cli(capsys, "--bots", "greedy,random", "--games", "2", "--ray", *SHORT)
    assert code == 1 and out == ""
    assert "--ray needs Ray" in err and "pip install 'peloton[ray]'" in err


def test_an_address_where_no_cluster_answers_is_a_clear_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = cli(capsys, "--bots", "greedy,random", "--games", "2", "--ray",
                         "--ray-address", "127.0.0.1:1", *SHORT)  # fmt: skip
    assert code == 1 and out == ""
    assert "--ray-address 127.0.0.1:1: no Ray cluster answers there" in err
    assert "ray start --head" in err


@pytest.mark.parametrize("address", ["nowhere", "host:port", "10.0.0.1:99999", "http://h:1"])
def test_a_malformed_address_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], address: str
) -> None:
    code, _, err = cli(capsys, "--bots", "greedy,random", "--ray", "--ray-address", address)
    assert code == 2
    assert f"--ray-address {address!r}: give HOST:PORT" in err


def test_an_address_without_ray_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = cli(capsys, "--bots", "greedy,random", "--ray-address", "auto")
    assert code == 2 and "--ray-address goes with --ray" in err


def test_ray_is_imported_only_by_a_run_that_asks_for_it() -> None:
    code = (
        "import sys\n"
        "import peloton, peloton.analysis, peloton.analysis.simulate\n"
        "from peloton.cli import main\n"
        "for argv in (['--help'], ['simulate', '--help']):\n"
        "    try:\n"
        "        main(argv)\n"
        "    except SystemExit as done:\n"
        "        assert done.code in (0, None), done.code\n"
        "print('ray' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "False"
    assert "--ray-address" in done.stdout


@pytest.mark.parametrize(
    ("address", "expected"),
    [
        ("127.0.0.1:6379", ("127.0.0.1", 6379)),
        ("ray://head.example:10001", ("head.example", 10001)),
        ("[::1]:6379", ("::1", 6379)),
        ("head", None),
        ("head:0", None),
        ("auto", None),
    ],
)
def test_addresses(address: str, expected: tuple[str, int] | None) -> None:
    assert endpoint(address) == expected
    if expected is not None:
        RayCluster(address).check()


@given(st.integers(1, 500), st.integers(1, 64))
def test_chunks_cover_every_game_once_in_order(count: int, slots: int) -> None:
    cut = chunks(count, slots)
    assert [i for games in cut for i in games] == list(range(count))
    assert all(1 <= len(games) <= MAX_CHUNK for games in cut)


@given(st.data())
def test_results_come_out_in_game_order_whatever_order_chunks_finish(data: st.DataObject) -> None:
    count = data.draw(st.integers(1, 200))
    slots = data.draw(st.integers(1, 8))
    cut = chunks(count, slots)
    finished = data.draw(st.permutations([(g.start, [f"game {i}" for i in g]) for g in cut]))
    assert list(in_order(finished)) == [f"game {i}" for i in range(count)]


def test_a_chunk_that_never_comes_back_is_an_error() -> None:
    with pytest.raises(RuntimeError, match="games from 2 on never came back"):
        list(in_order([(0, ["a", "b"]), (4, ["e"])]))


def test_a_worker_with_another_peloton_refuses_to_play() -> None:
    """A cluster node with another version could play other games: it says so."""
    from peloton import ConfigError, __version__

    assert play_chunk(str, range(2), __version__) == ["0", "1"]
    with pytest.raises(ConfigError, match=r"runs Peloton .* this command 0\.0\.1: install"):
        play_chunk(str, range(2), "0.0.1")
