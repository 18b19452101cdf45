"""Installed plugins: discovery, broken plugins, blocking, and the cost of listing the variants.

Each test installs fake distributions into a temporary folder put on ``sys.path`` (a
``NAME-VERSION.dist-info`` folder with ``METADATA`` and ``entry_points.txt``, beside the
plugin's module), as pip would, and drives the command line in-process and as a process.
"""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
from collections.abc import Iterator
from importlib.resources import files
from pathlib import Path
from typing import Any

import pluggy
import pytest

from bezique.commands.cli import main
from bezique.errors import PluginError, VariantError
from bezique.game import new_game, ruleset_for
from bezique.hookspecs import hookimpl
from bezique.rules import ruleset
from bezique.variant import checks, explain, load_variant, registry, variant_summaries

_serial = itertools.count()

GOOD = """\
from pathlib import Path

from bezique.hookspecs import hookimpl


@hookimpl
def bezique_trick_winner(state, cards):
    return None


@hookimpl
def bezique_variant_files():
    return {"{variant}": Path(__file__).with_name("{variant}.yaml")}
"""

BROKEN = {
    "import_error": "import numpyy_no_such_module\n",
    "syntax_error": "def bezique_trick_winner(state, cards)\n    return None\n",
    "exception": "raise RuntimeError('the licence server is down')\n",
    "misspelt_hook": (
        "from bezique.hookspecs import hookimpl\n\n\n"
        "@hookimpl\ndef bezique_trik_winner(state, cards):\n    return None\n"
    ),
    "bad_argument": (
        "from bezique.hookspecs import hookimpl\n\n\n"
        "@hookimpl\ndef bezique_trick_winner(state, cardz):\n    return None\n"
    ),
}
"""Module texts of broken plugins, by the kind of breakage."""

PROBLEM = {
    "import_error": (
        "its module failed to import: ModuleNotFoundError: No module named 'numpyy_no_such_module'"
    ),
    "syntax_error": "its module failed to import: SyntaxError: expected ':'",
    "exception": "its module failed to import: RuntimeError: the licence server is down",
    "misspelt_hook": (
        "it implements 'bezique_trik_winner', which is not a bezique hook; "
        "did you mean 'bezique_trick_winner'?"
    ),
    "bad_argument": (
        "its bezique_trick_winner takes 'cardz', which the hook does not offer "
        "(it offers: state, cards)"
    ),
}
"""What the message says about each kind of breakage."""


def block_hint(name: str) -> str:
    return f"set BEZIQUE_BLOCK_PLUGINS={name} to hide it"


class Site:
    """A folder of installed distributions, on ``sys.path`` for the test's duration."""

    def __init__(self, root: Path) -> None:
        self.root = root
        root.mkdir(parents=True, exist_ok=True)

    def install(self, dist: str, modules: dict[str, str], points: dict[str, str]) -> None:
        """Install distribution ``dist`` 1.0: module files and ``bezique`` entry points."""
        info = self.root / f"{dist.replace('-', '_')}-1.0.dist-info"  # as pip names it
        info.mkdir()
        (info / "METADATA").write_text(
            f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n", encoding="utf-8"
        )
        lines = "".join(f"{name} = {value}\n" for name, value in points.items())
        (info / "entry_points.txt").write_text(f"[bezique]\n{lines}", encoding="utf-8")
        for module, text in modules.items():
            (self.root / module).write_text(text, encoding="utf-8")

    def plugin(self, kind: str) -> tuple[str, str]:
        """Install one plugin of ``kind`` (a key of BROKEN, or "good"); return name and module."""
        serial = next(_serial)
        name, module, dist = f"{kind}-{serial}", f"fake_{kind}_{serial}", f"dist-{kind}-{serial}"
        if kind == "good":
            text = GOOD.replace("{variant}", f"shipped-{serial}")
            shipped = (
                f"name: shipped-{serial}\nextends: ordinary\n"
                f"summary: A variant shipped by a plugin.\nplugins: [ordinary, {name}]\n"
            )
            self.install(
                dist, {f"{module}.py": text, f"shipped-{serial}.yaml": shipped}, {name: module}
            )
        else:
            self.install(dist, {f"{module}.py": BROKEN[kind]}, {name: module})
        return name, module


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Site]:
    """Fake installed distributions, seen by a fresh discovery of the plugins."""
    folder = Site(tmp_path / "site")
    monkeypatch.syspath_prepend(os.fspath(folder.root))
    monkeypatch.setattr(registry, "_discovery", None)
    monkeypatch.setattr(registry, "_added", {})
    monkeypatch.setattr(ruleset, "_REGISTERED", type(ruleset._REGISTERED)())
    monkeypatch.delenv(registry.BLOCK_ENV, raising=False)
    yield folder


def house(folder: Path, plugin: str) -> str:
    path = folder / "house.yaml"
    path.write_text(
        f"name: house\nextends: ordinary\nsummary: A house rule.\nplugins: [ordinary, {plugin}]\n",
        encoding="utf-8",
    )
    return os.fspath(path)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return status, out, err


# --------------------------------------------------------------------------- broken plugins


@pytest.mark.parametrize("kind", sorted(BROKEN))
def test_a_broken_plugin_blocks_only_the_variants_that_name_it(
    kind: str, site: Site, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    name, module = site.plugin(kind)
    path = house(tmp_path, name)

    status, out, err = run(capsys, "validate", path)
    assert (status, out) == (1, "")
    [line] = err.splitlines()
    assert line.startswith(
        f"{path}:4:21: plugins[1]: plugin {name!r} "
        f"(entry point {name} = {module} of distribution dist-{name} 1.0) cannot be used: "
    )
    assert PROBLEM[kind] in line
    assert line.endswith(block_hint(name))

    # The built-in variants still load and play, and so does the listing.
    assert load_variant("eb1875").name == "eb1875"
    assert new_game("ordinary", seed=1).legal_actions()
    status, out, err = run(capsys, "simulate", "--variant", "ordinary", "--games", "1")
    assert (status, err) == (0, "")
    status, out, err = run(capsys, "variants")
    assert status == 1
    assert "ordinary " in out and "polish " in out
    [line] = err.splitlines()
    assert line.startswith(f"bezique: plugin {name!r} (entry point {name} = {module} ")
    assert PROBLEM[kind] in line and line.endswith(block_hint(name))


def test_the_broken_plugin_error_is_a_variant_error_at_the_plugins_line(
    site: Site, tmp_path: Path
) -> None:
    name, _ = site.plugin("bad_argument")
    path = house(tmp_path, name)
    with pytest.raises(VariantError) as caught:
        load_variant(path)
    [problem] = caught.value.problems
    assert problem.startswith(f"{path}:4:21: plugins[1]: plugin {name!r} ")
    with pytest.raises(PluginError, match=f"plugin '{name}' .* cannot be used: its "):
        registry.plugin_manager(["ordinary", name])


def test_a_blocked_plugin_is_not_imported_and_a_variant_naming_it_says_so(
    site: Site, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    name, module = site.plugin("exception")
    monkeypatch.setenv(registry.BLOCK_ENV, f"other, {name}")
    status, out, err = run(capsys, "variants")
    assert (status, err) == (0, "") and "ordinary " in out
    assert module not in sys.modules
    path = house(tmp_path, name)
    status, _, err = run(capsys, "validate", path)
    assert status == 1
    assert err == (
        f"{path}:4:21: plugins[1]: plugin {name!r} is blocked by BEZIQUE_BLOCK_PLUGINS "
        "(take it out of that list to use it)\n"
    )


def test_two_distributions_registering_one_name(
    site: Site, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site.install("first-dist", {"fake_twin_a.py": "\n"}, {"twin": "fake_twin_a"})
    site.install("second-dist", {"fake_twin_b.py": "\n"}, {"twin": "fake_twin_b"})
    path = house(tmp_path, "twin")
    status, _, err = run(capsys, "validate", path)
    assert status == 1
    assert err == (
        f"{path}:4:21: plugins[1]: plugin 'twin' cannot be used: two distributions register "
        "it: entry point twin = fake_twin_a of distribution first-dist 1.0, and "
        "entry point twin = fake_twin_b of distribution second-dist 1.0; uninstall one of "
        f"them, or {block_hint('twin')}\n"
    )
    assert "fake_twin_a" not in sys.modules and "fake_twin_b" not in sys.modules
    assert new_game("ordinary", seed=2).legal_actions()


def test_a_distribution_taking_a_built_in_name_leaves_the_built_in(
    site: Site, capsys: pytest.CaptureFixture[str]
) -> None:
    site.install(
        "usurper", {"fake_usurper.py": "raise SystemExit(3)\n"}, {"ordinary": "fake_usurper"}
    )
    assert registry.known_plugins()["ordinary"] is sys.modules["bezique.plugins.ordinary"]
    assert new_game("ordinary", seed=3).legal_actions()
    status, out, err = run(capsys, "variants")
    assert status == 1 and "ordinary " in out
    assert err == (
        "bezique: plugin 'ordinary' of entry point ordinary = fake_usurper of distribution "
        "usurper 1.0 is not used: 'ordinary' is the name of a built-in plugin; rename the "
        "entry point\n"
    )


def test_a_good_plugin_beside_a_broken_one_works(
    site: Site, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good, _ = site.plugin("good")
    site.plugin("import_error")
    shipped = f"shipped-{good.split('-')[1]}"
    assert load_variant(shipped).plugins == ("ordinary", good)
    assert ruleset_for(house(tmp_path, good)).variant.plugins == ("ordinary", good)
    status, out, _ = run(capsys, "variants")
    assert status == 1
    assert [shipped, "A variant shipped by a plugin."] in [
        line.split(None, 1) for line in out.splitlines()
    ]
    status, out, err = run(capsys, "simulate", "--variant", shipped, "--games", "1")
    assert (status, err) == (0, "")


def test_a_plugin_whose_variant_files_hook_fails(
    site: Site, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (
        "from bezique.hookspecs import hookimpl\n\n\n"
        "@hookimpl\ndef bezique_variant_files():\n    return {'x': 42}\n"
    )
    site.install("files-dist", {"fake_files.py": text}, {"files": "fake_files"})
    path = house(tmp_path, "files")
    status, _, err = run(capsys, "validate", path)
    assert status == 1
    assert (
        "cannot be used: its bezique_variant_files() offers 'x' as the number 42; "
        "offer a path or a package resource"
    ) in err


def test_an_unknown_variant_names_the_broken_plugins(site: Site) -> None:
    name, _ = site.plugin("exception")
    with pytest.raises(VariantError) as caught:
        load_variant("shipped-nowhere")
    [problem] = caught.value.problems
    assert problem.startswith("no variant named 'shipped-nowhere'; `bezique variants` lists them")
    assert f"(plugin {name!r} could not be loaded, and any variant it offers is missing)" in problem


def test_register_plugin_refuses_a_broken_plugin(site: Site) -> None:
    class Misspelt:
        @hookimpl
        def bezique_legal_play(self, state: object) -> None:
            return None

    with pytest.raises(PluginError) as caught:
        registry.register_plugin("misspelt", Misspelt())
    assert str(caught.value) == (
        "plugin 'misspelt' (registered by register_plugin) cannot be used: it implements "
        "'bezique_legal_play', which is not a bezique hook; did you mean 'bezique_legal_plays'?"
    )
    assert "misspelt" not in registry.known_plugins()


def test_register_plugin_adds_a_working_plugin(site: Site, tmp_path: Path) -> None:
    class Lenient:
        @hookimpl
        def bezique_legal_plays(self, cards: list[int]) -> list[int]:
            return cards

    plugin = Lenient()
    registry.register_plugin("lenient", plugin)
    registry.register_plugin("lenient", plugin)  # the same plugin again: no change
    assert registry.known_plugins()["lenient"] is plugin
    assert ruleset_for(house(tmp_path, "lenient")).variant.plugins == ("ordinary", "lenient")
    with pytest.raises(PluginError, match="two different plugins are registered as 'lenient'"):
        registry.register_plugin("lenient", Lenient())


def test_the_broken_plugin_message_shown_is_the_real_one(
    site: Site, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    readme = (Path(__file__).resolve().parent.parent / "docs" / "plugins" / "broken.md").read_text(
        encoding="utf-8"
    )
    [shown] = [line for line in readme.splitlines() if line.startswith("house.yaml:4:21: ")]
    (site.root / "mypackage").mkdir()
    site.install(
        "mypackage",
        {"mypackage/__init__.py": "", "mypackage/rules.py": "import mypackage.tables\n"},
        {"myrules": "mypackage.rules"},
    )
    monkeypatch.delitem(sys.modules, "mypackage", raising=False)
    path = house(tmp_path, "myrules")
    assert path == os.fspath(tmp_path / "house.yaml")
    status, _, err = run(capsys, "validate", path)
    assert status == 1
    assert err == os.fspath(tmp_path / shown) + "\n"


@pytest.mark.slow
def test_broken_plugins_as_a_process(site: Site, tmp_path: Path) -> None:
    kinds = ("import_error", "misspelt_hook", "bad_argument")
    names = {kind: site.plugin(kind)[0] for kind in kinds}
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PYTHONPATH"] = os.fspath(site.root)
    env.pop(registry.BLOCK_ENV, None)

    def bezique(*argv: str, block: str = "") -> subprocess.CompletedProcess[str]:
        extra = {registry.BLOCK_ENV: block} if block else {}
        return subprocess.run(
            [sys.executable, "-m", "bezique", *argv],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            env={**env, **extra},
            timeout=120,
            check=False,
        )

    done = bezique("simulate", "--variant", "ordinary", "--games", "1")
    assert (done.returncode, done.stderr) == (0, "")
    for kind, name in names.items():
        path = house(tmp_path, name)
        done = bezique("validate", path)
        assert done.returncode == 1 and "Traceback" not in done.stderr
        assert done.stderr == (
            f"{path}:4:21: plugins[1]: plugin {name!r} (entry point {name} = "
            f"fake_{name.replace('-', '_')} of distribution dist-{name} 1.0) cannot be used: "
            f"{PROBLEM[kind]}; fix or uninstall it, or {block_hint(name)}\n"
        )
    done = bezique("variants")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert any(line.startswith("ordinary ") for line in done.stdout.splitlines())
    assert len(done.stderr.splitlines()) == len(kinds)
    done = bezique("variants", block=",".join(names.values()))
    assert (done.returncode, done.stderr) == (0, "")


# --------------------------------------------------------------------------- listing is cheap


def test_listing_builds_no_plugin_manager_and_validates_nothing(
    site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    registry.known_plugins()  # discovery: each installed plugin checked once per process
    counts = {"managers": 0, "schema": 0, "sense": 0}
    built = pluggy.PluginManager.__init__
    schema, sense = explain.schema_problems, checks.sense_problems

    def count_manager(self: pluggy.PluginManager, project_name: str) -> None:
        counts["managers"] += 1
        built(self, project_name)

    def count_schema(*args: Any) -> Any:
        counts["schema"] += 1
        return schema(*args)

    def count_sense(*args: Any) -> Any:
        counts["sense"] += 1
        return sense(*args)

    monkeypatch.setattr(pluggy.PluginManager, "__init__", count_manager)
    monkeypatch.setattr(explain, "schema_problems", count_schema)
    monkeypatch.setattr(checks, "sense_problems", count_sense)
    summaries = dict(variant_summaries())
    # the shipped files, and those installed plugins offer (the eight-pack distribution's)
    shipped = {f.name[:-5] for f in files("bezique.variants").iterdir() if f.name.endswith(".yaml")}
    assert set(summaries) == set(registry.variant_files()) >= shipped
    assert counts == {"managers": 0, "schema": 0, "sense": 0}

    # The plugins check a variant's data: one manager per plugin list answers them,
    # built at the first load of that list; its ruleset builds one of its own, once.
    load_variant("four-hand-partners")
    load_variant("four-hand-partners")
    load_variant("four-hand-partners-bicycle")  # another file, the same plugin list
    assert counts["managers"] == 1
    ruleset_for("four-hand-partners")
    ruleset_for("four-hand-partners")
    assert counts["managers"] == 2


def test_listing_does_not_import_the_schema_validator(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "from bezique.commands.cli import main\n"
        "status = main(['variants'])\n"
        "print(status, 'jsonschema' in sys.modules, file=sys.stderr)\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env.pop(registry.BLOCK_ENV, None)
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.stderr == "0 False\n"
    assert any(line.startswith("ordinary ") for line in done.stdout.splitlines())


def test_listing_reads_each_summary_as_loading_does() -> None:
    for name, summary in variant_summaries():
        assert load_variant(name).summary == summary


def test_listing_reports_a_file_without_a_summary(site: Site, tmp_path: Path) -> None:
    text = GOOD.replace("{variant}", "nosummary")
    site.install(
        "nosummary-dist",
        {"fake_nosummary.py": text, "nosummary.yaml": "name: nosummary\nextends: ordinary\n"},
        {"nosummary": "fake_nosummary"},
    )
    # The summary is inherited, as loading reads it.
    assert dict(variant_summaries())["nosummary"] == load_variant("ordinary").summary
    (site.root / "nosummary.yaml").write_text(
        "name: nosummary\nextends: ordinary\nsummary: null\n", encoding="utf-8"
    )
    with pytest.raises(VariantError) as loading:
        load_variant("nosummary")
    with pytest.raises(VariantError) as listing:
        variant_summaries()
    assert listing.value.problems == loading.value.problems
    assert listing.value.problems[0].startswith("builtin/nosummary.yaml:1:1: ")


def test_listing_names_problem_files_and_lists_the_rest(
    site: Site, capsys: pytest.CaptureFixture[str]
) -> None:
    text = GOOD.replace("{variant}", "badyaml")
    site.install(
        "badyaml-dist",
        {"fake_badyaml.py": text, "badyaml.yaml": "name: [unclosed\n"},
        {"badyaml": "fake_badyaml"},
    )
    status, out, err = run(capsys, "variants")
    assert status == 1
    assert "ordinary " in out and "badyaml" not in out
    [line] = err.splitlines()
    assert line.startswith("bezique: builtin/badyaml.yaml:")


def test_listing_names_a_file_whose_yaml_reading_refused_a_value(
    site: Site, capsys: pytest.CaptureFixture[str]
) -> None:
    text = GOOD.replace("{variant}", "octal")
    body = "name: octal\nsummary: x\nextends: ordinary\ngame:\n  target: 01000\n"
    site.install("octal-dist", {"fake_octal.py": text, "octal.yaml": body}, {"octal": "fake_octal"})
    status, out, err = run(capsys, "variants")
    assert status == 1
    assert "ordinary " in out and "octal" not in out
    assert err == (
        "bezique: builtin/octal.yaml:5:11: '01000' is read as the octal number 512 by YAML 1.1 "
        "but as 1000 by YAML 1.2; write 1000 (no leading zeros), or put it in quotes for text\n"
    )


def test_plugin_problem_of_a_working_and_an_unknown_plugin() -> None:
    assert registry.plugin_problem("ordinary") is None
    message = registry.plugin_problem("nosuch")
    assert message is not None and message.startswith("unknown plugin 'nosuch'; known plugins: ")
