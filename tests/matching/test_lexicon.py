"""The lexicon: each word list defined once, used by the package's regexes, and not spelled inline elsewhere."""

from __future__ import annotations

import ast
import itertools
import re
from pathlib import Path

import pytest

from kopa_inspect.matching import lexicon
from kopa_inspect.matching.lexicon import SUPERLATIVE_ADVERBS_KO, SUPERLATIVE_WORDS_KO, alternation

PACKAGE = Path(lexicon.__file__).parent
LISTS = {name: value for name, value in vars(lexicon).items() if name.isupper() and isinstance(value, tuple)}
# the other modules of the package, by name: the ones that build regexes from the lists
SOURCES = {p.stem: p.read_text(encoding="utf-8") for p in sorted(PACKAGE.glob("*.py")) if p.stem != "lexicon"}


def _names_used(source: str) -> set[str]:
    """Names a module reads (imports alone do not count: an unused import is no use)."""
    return {node.id for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Name)}


def _inline_pairs(source: str, words: tuple[str, ...]) -> list[str]:
    """Two words of ``words`` written as a literal alternation ("가장|제일") in ``source``."""
    return [f"{a}|{b}" for a, b in itertools.permutations(words, 2) if f"{a}|{b}" in source]


def test_there_are_lists() -> None:
    assert len(LISTS) >= 20


@pytest.mark.parametrize("name", sorted(LISTS))
def test_a_list_is_non_empty_strings_without_duplicates(name: str) -> None:
    words = LISTS[name]
    assert words, f"{name} is empty"
    assert all(isinstance(w, str) and w for w in words), name
    assert len(set(words)) == len(words), f"{name} repeats {[w for w in words if words.count(w) > 1]}"


@pytest.mark.parametrize("name", sorted(LISTS))
def test_a_list_is_used_by_a_matching_module(name: str) -> None:
    users = [module for module, source in SOURCES.items() if name in _names_used(source)]
    assert users, f"{name} is used by no module of kopa_inspect.matching"


def test_an_unused_list_is_found() -> None:
    source = "from kopa_inspect.matching.lexicon import COUNT_UNITS_KO\n_X = 1\n"
    assert "COUNT_UNITS_KO" not in _names_used(source)
    assert "COUNT_UNITS_KO" in _names_used(source + "_Y = COUNT_UNITS_KO\n")


def test_the_superlatives_are_not_spelled_inline() -> None:
    words = (*SUPERLATIVE_ADVERBS_KO, *SUPERLATIVE_WORDS_KO)
    spelled = {module: pairs for module, source in SOURCES.items() if (pairs := _inline_pairs(source, words))}
    assert not spelled, f"superlatives written inline instead of built from the lexicon: {spelled}"


def test_an_inline_superlative_is_found() -> None:
    words = (*SUPERLATIVE_ADVERBS_KO, *SUPERLATIVE_WORDS_KO)
    assert _inline_pairs('_MARKER = re.compile(r"가장|제일|1위")', words) == ["가장|제일"]
    assert _inline_pairs('_X = re.compile(r"최저|최소")', words) == ["최저|최소"]
    assert _inline_pairs('_X = re.compile(rf"{alternation(SUPERLATIVE_WORDS_KO)}")', words) == []


@pytest.mark.parametrize("name", sorted(n for n, v in LISTS.items() if len(v) > 1))
def test_no_whole_list_is_spelled_inline(name: str) -> None:
    joined = "|".join(LISTS[name])
    spelled = [module for module, source in SOURCES.items() if joined in source]
    assert not spelled, f"{name} ({joined}) written inline in {spelled}"


def test_the_superlative_markers_are_built_from_the_lists() -> None:
    from kopa_inspect.matching.winners import _MARKER

    for word in (*SUPERLATIVE_ADVERBS_KO, *SUPERLATIVE_WORDS_KO):
        assert _MARKER.search(f"{word} 높은 곳"), word
    assert not _MARKER.search("평균 기온")


def test_alternation_escapes_literal_words_and_keeps_fragments() -> None:
    literal = re.compile(alternation(("a.b", "c+")))
    assert literal.fullmatch("a.b") and literal.fullmatch("c+")
    assert not literal.fullmatch("axb") and not literal.fullmatch("cc")
    fragments = re.compile(alternation((r"1\s*위", "일등"), literal=False))
    assert fragments.fullmatch("1 위") and fragments.fullmatch("일등")
    assert alternation(("가장", "제일")) == "가장|제일"
