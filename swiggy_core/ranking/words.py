"""Text to comparable words: lowercase, singular, one spelling per synonym group."""

from __future__ import annotations

import re
from collections.abc import Iterable

_TOKEN_RE = re.compile(r"[a-z]+|\d+(?:\.\d+)?")
_APOSTROPHES = str.maketrans({"'": "", "’": "", "`": ""})


def stem(word: str) -> str:
    """A plural read as its singular ("eggs" → "egg", "berries" → "berry").

    Deliberately light: both sides of every comparison go through it, so it only has to
    be consistent, and a light touch never merges two different words.
    """
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("oes", "ches", "shes", "xes", "sses")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def raw_tokens(text: str) -> list[str]:
    """Lowercase words and numbers, singular ("Fresh Eggs 6 pcs" → fresh egg 6 pc)."""
    lowered = text.lower().translate(_APOSTROPHES)
    return [stem(token) for token in _TOKEN_RE.findall(lowered)]


def phrase(text: str) -> str:
    """One lexicon entry in the same form as the text it is compared with."""
    return " ".join(raw_tokens(text))


class Synonyms:
    """Rewrites every variant of a synonym group to the group's first word."""

    def __init__(self, groups: Iterable[Iterable[str]]) -> None:
        self._canonical: dict[str, str] = {}
        for group in groups:
            words = [phrase(entry) for entry in group]
            for variant in words[1:]:
                if variant and variant != words[0]:
                    self._canonical[variant] = words[0]
        # Longest first, so "milk shake" wins over "milk" and "non veg" over "veg".
        variants = sorted(self._canonical, key=len, reverse=True)
        alternatives = "|".join(re.escape(variant) for variant in variants)
        self._pattern = re.compile(rf"(?<![a-z0-9])(?:{alternatives})(?![a-z0-9])")

    def rewrite(self, words: str) -> str:
        """Space-joined words with each variant replaced by its canonical spelling."""
        if not self._canonical:
            return words
        return self._pattern.sub(lambda match: self._canonical[match.group(0)], words)


def padded(words: Iterable[str]) -> str:
    """Words joined with a space on both ends, so `f" {phrase} " in padded` finds phrases."""
    return f" {' '.join(words)} "


def has_phrase(padded_words: str, entry: str) -> bool:
    """Whether a (lexicon-form) phrase occurs as whole words."""
    return f" {entry} " in padded_words
