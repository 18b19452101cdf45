"""The strict YAML reader on libyaml reads every shipped variant as the reader in Python does.

:func:`bezique.reading.yamlsafe.parse_yaml` takes a file read without a problem from
:data:`~bezique.reading.yamlnodes.CStrictLoader` (libyaml's events, the same composer
and checks); a file with a problem is read again by the Python reader, which tells it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bezique.errors import VariantError
from bezique.reading import yamlnodes, yamlsafe

VARIANTS = sorted((Path(__file__).parent.parent / "variants").glob("*.yaml"))


def _in_python(monkeypatch: pytest.MonkeyPatch, text: str, name: str) -> yamlsafe.YamlDocument:
    with monkeypatch.context() as patched:
        patched.setattr(yamlsafe, "CStrictLoader", None)
        return yamlsafe.parse_yaml(text, name, keep_problems=True)


def test_libyaml_is_there_to_be_compared() -> None:
    assert yamlnodes.CStrictLoader is not None


@pytest.mark.parametrize("path", VARIANTS, ids=[p.stem for p in VARIANTS])
def test_every_shipped_variant_reads_the_same_on_libyaml(
    monkeypatch: pytest.MonkeyPatch, path: Path
) -> None:
    text = path.read_text(encoding="utf-8")
    fast = yamlsafe.parse_yaml(text, path.name)
    assert fast == _in_python(monkeypatch, text, path.name)


@pytest.mark.parametrize(
    "text",
    [
        "name: x\nname: y\n",
        "a: &one 1\nb: *one\n",
        "a: [1, 2\n",
        "a: !!python/object 1\n",
        "a: yes\n",
        "a: 1\n---\nb: 2\n",
    ],
)
def test_a_file_with_a_problem_is_told_as_the_python_reader_tells_it(
    monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    with pytest.raises(VariantError) as fast:
        yamlsafe.parse_yaml(text, "f.yaml")
    with monkeypatch.context() as patched:
        patched.setattr(yamlsafe, "CStrictLoader", None)
        with pytest.raises(VariantError) as slow:
            yamlsafe.parse_yaml(text, "f.yaml")
    assert fast.value.problems == slow.value.problems
    assert fast.value.problems[0].startswith("f.yaml:")
