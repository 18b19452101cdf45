"""Garbage in, a clean VariantError out: the loader never fails any other way."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bezique.errors import VariantError
from bezique.variant import Variant, load_variant

ORDINARY_TEXT = files("bezique.variants").joinpath("ordinary.yaml").read_text(encoding="utf-8")
ORDINARY_LINES = ORDINARY_TEXT.splitlines(keepends=True)
ORDINARY_DATA: dict[str, Any] = yaml.safe_load(ORDINARY_TEXT)

FUZZ = settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
FUZZ_ORDINARY = settings(FUZZ, max_examples=60)  # each example parses the whole file


@pytest.fixture(scope="module")
def target(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz") / "fuzz.yaml"


def assert_clean(path: Path, content: str | bytes) -> Variant | None:
    """Write ``content`` to ``path`` and load it: a Variant or a VariantError, nothing else."""
    if isinstance(content, str):
        path.write_bytes(content.encode("utf-8", errors="surrogatepass"))
    else:
        path.write_bytes(content)
    try:
        variant = load_variant(path)
    except VariantError as exc:
        assert exc.problems
        assert all(isinstance(p, str) and p.strip() for p in exc.problems)
        return None
    assert isinstance(variant, Variant)
    assert isinstance(variant.data, dict)
    return variant


# --- random text ---------------------------------------------------------------------------

YAML_ALPHABET = st.sampled_from(list(":-[]{},#&*!|>'\"%@`?\n\t .0123456789abcdeKQST~<="))


@FUZZ
@given(text=st.text(max_size=400))
def test_random_text(target: Path, text: str) -> None:
    assert_clean(target, text)


@FUZZ
@given(text=st.text(alphabet=YAML_ALPHABET, max_size=400))
def test_random_yaml_punctuation(target: Path, text: str) -> None:
    assert_clean(target, text)


@FUZZ
@given(raw=st.binary(max_size=400))
def test_random_bytes(target: Path, raw: bytes) -> None:
    assert_clean(target, raw)


# --- mutations of the ordinary variant -----------------------------------------------------


@st.composite
def mutated_ordinary(draw: st.DrawFn) -> str:
    """The ordinary file with a few lines deleted, duplicated, garbled or swapped."""
    lines = list(ORDINARY_LINES)
    for _ in range(draw(st.integers(1, 4))):
        index = draw(st.integers(0, len(lines) - 1))
        action = draw(st.sampled_from(["delete", "duplicate", "garble", "swap", "indent"]))
        if action == "delete":
            del lines[index]
        elif action == "duplicate":
            lines.insert(index, lines[index])
        elif action == "garble":
            line = lines[index]
            cut = draw(st.integers(0, len(line)))
            noise = draw(st.text(alphabet=YAML_ALPHABET, max_size=8))
            lines[index] = line[:cut] + noise + line[cut + draw(st.integers(0, 3)) :]
        elif action == "swap":
            other = draw(st.integers(0, len(lines) - 1))
            lines[index], lines[other] = lines[other], lines[index]
        else:
            lines[index] = draw(st.sampled_from([" ", "  ", "\t", ""])) + lines[index].lstrip()
        if not lines:
            break
    return "".join(lines)


@pytest.mark.slow
@FUZZ_ORDINARY
@given(text=mutated_ordinary())
def test_mutated_ordinary(target: Path, text: str) -> None:
    assert_clean(target, text)


# --- random data dumped to YAML ------------------------------------------------------------

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=12)
    | st.sampled_from(["A", "QS", "JD", "ordinary", "turn_up", "several", "marriages", "", "7"])
)
KEYS = st.text(max_size=10) | st.integers(-5, 5) | st.sampled_from(sorted(ORDINARY_DATA))
NESTED = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(KEYS, inner, max_size=4),
    max_leaves=20,
)


def dump(data: Any) -> str:
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True)


@pytest.mark.slow
@FUZZ
@given(data=NESTED)
def test_random_nested_data(target: Path, data: Any) -> None:
    assert_clean(target, dump(data))


def paths_of(node: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield prefix
    if isinstance(node, dict):
        for key, value in node.items():
            yield from paths_of(value, (*prefix, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from paths_of(value, (*prefix, index))


ORDINARY_PATHS = [p for p in paths_of(ORDINARY_DATA) if p]


def replace_at(data: Any, path: tuple[Any, ...], value: Any) -> Any:
    result = copy.deepcopy(data)
    node = result
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = value
    return result


@pytest.mark.slow
@FUZZ_ORDINARY
@given(path=st.sampled_from(ORDINARY_PATHS), value=NESTED)
def test_ordinary_with_one_value_replaced(target: Path, path: tuple[Any, ...], value: Any) -> None:
    assert_clean(target, dump(replace_at(ORDINARY_DATA, path, value)))


@FUZZ_ORDINARY
@given(path=st.sampled_from(ORDINARY_PATHS), value=NESTED)
def test_ordinary_overrides_with_random_values(path: tuple[Any, ...], value: Any) -> None:
    overrides: Any = value
    for part in reversed(path):
        overrides = {part: overrides} if isinstance(part, str) else [overrides]
    try:
        load_variant("ordinary", overrides if isinstance(overrides, dict) else None)
    except VariantError as exc:
        assert exc.problems


@FUZZ_ORDINARY
@given(picked=st.lists(st.integers(0, len(ORDINARY_LINES) - 1), max_size=12))
def test_house_rule_of_some_ordinary_lines(target: Path, picked: list[int]) -> None:
    body = "".join(ORDINARY_LINES[index] for index in sorted(picked))
    assert_clean(target, "name: house\nextends: ordinary\nsummary: Some lines.\n" + body)
