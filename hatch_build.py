"""Wheel build hook: compile the optional native Mind Cycling core (peloton/native).

Runs for ``pip install .`` and the editable install ``make`` does. It calls
``src/peloton/native/build.py`` (loaded by path: the build environment has cffi but
none of Peloton's dependencies), which compiles ``_mc<EXT_SUFFIX>`` beside the C
files. When that fails (no C compiler, e.g. ``CC=/bin/false``) the install goes on
with a warning and Peloton runs on its pure-Python engine.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

BUILD_SCRIPT = Path(__file__).parent / "src" / "peloton" / "native" / "build.py"


class NativeBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    """Compile the native core; never fail the install because of it."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return  # an sdist ships the C sources, not a compiled module
        spec = importlib.util.spec_from_file_location("peloton_native_build", BUILD_SCRIPT)
        assert spec is not None and spec.loader is not None
        builder = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(builder)
        try:
            built = builder.build()
        except (ImportError, RuntimeError) as exc:
            self.app.display_warning(
                f"peloton: native engine not built ({exc}); the pure-Python engine will run"
            )
            return
        self.app.display_info(f"peloton: native engine built ({built.name})")
        if version != "editable":  # an editable install imports them from src/ directly
            for module in (built, builder.target(built.parent, "_moves")):
                build_data["force_include"][str(module)] = f"peloton/native/{module.name}"
            build_data["pure_python"] = False
            build_data["infer_tag"] = True
