"""English stemming for recall: the Porter2 (Snowball English) algorithm, written out.

`admitted`, `admits` and `admitting` meet at `admit`, so a question and an entry that use
different forms of a word still match.  tests/test_recall.py pins it on Porter2's own
examples; 200 lines of ours were worth more than a dependency.
"""

from __future__ import annotations

from typing import Final


def _r1_r2(word: str) -> tuple[int, int]:
    """Porter2's regions: R1 after the first non-vowel that follows a vowel, R2 likewise in R1."""
    for prefix in _R1_PREFIXES:
        if word.startswith(prefix):
            r1 = len(prefix)
            break
    else:
        r1 = _region(word, 0)
    return r1, _region(word, r1)


def _region(word: str, start: int) -> int:
    for i in range(start + 1, len(word)):
        if word[i] not in _VOWELS and word[i - 1] in _VOWELS:
            return i + 1
    return len(word)


_VOWELS: Final = frozenset("aeiouy")
_R1_PREFIXES: Final = (
    "arsen",
    "commun",
    "emerg",
    "gener",
    "inter",
    "later",
    "organ",
    "past",
    "univers",
)
_DOUBLES: Final = ("bb", "dd", "ff", "gg", "mm", "nn", "pp", "rr", "tt")
_LI_ENDING: Final = frozenset("cdeghkmnrt")
_EXCEPTIONS: Final = {
    "skis": "ski",
    "skies": "sky",
    "dying": "die",
    "lying": "lie",
    "tying": "tie",
    "idly": "idl",
    "gently": "gentl",
    "ugly": "ugli",
    "early": "earli",
    "only": "onli",
    "singly": "singl",
    "sky": "sky",
    "news": "news",
    "howe": "howe",
    "atlas": "atlas",
    "cosmos": "cosmos",
    "bias": "bias",
    "andes": "andes",
}
_AFTER_1A: Final = frozenset(
    ["inning", "outing", "canning", "herring", "earring", "proceed", "exceed", "succeed"]
)
_STEP2: Final = (
    ("ization", "ize"),
    ("ational", "ate"),
    ("fulness", "ful"),
    ("ousness", "ous"),
    ("iveness", "ive"),
    ("tional", "tion"),
    ("biliti", "ble"),
    ("lessli", "less"),
    ("entli", "ent"),
    ("ation", "ate"),
    ("alism", "al"),
    ("aliti", "al"),
    ("ousli", "ous"),
    ("iviti", "ive"),
    ("fulli", "ful"),
    ("enci", "ence"),
    ("anci", "ance"),
    ("abli", "able"),
    ("izer", "ize"),
    ("ator", "ate"),
    ("alli", "al"),
    ("bli", "ble"),
    ("ogi", "og"),
    ("li", ""),
)
_STEP3: Final = (
    ("ational", "ate"),
    ("tional", "tion"),
    ("alize", "al"),
    ("icate", "ic"),
    ("iciti", "ic"),
    ("ative", ""),
    ("ical", "ic"),
    ("ness", ""),
    ("ful", ""),
)
_STEP4: Final = (
    "ement",
    "ance",
    "ence",
    "able",
    "ible",
    "ment",
    "ant",
    "ent",
    "ism",
    "ate",
    "iti",
    "ous",
    "ive",
    "ize",
    "ion",
    "al",
    "er",
    "ic",
)


_STEP2_ENDS: Final = tuple(suffix for suffix, _ in _STEP2)
_STEP3_ENDS: Final = tuple(suffix for suffix, _ in _STEP3)


def _short_syllable_end(word: str) -> bool:
    """True when word ends in a short syllable (Porter2's definition)."""
    n = len(word)
    if word.endswith("past"):
        return True
    if n == 2:
        return word[0] in _VOWELS and word[1] not in _VOWELS
    return (
        n >= 3
        and word[-1] not in _VOWELS
        and word[-1] not in "wxY"
        and word[-2] in _VOWELS
        and word[-3] not in _VOWELS
    )


def stem(word: str) -> str:
    """Porter2 (Snowball English) stem of a lower-case word."""
    if len(word) <= 2:
        return word
    if word in _EXCEPTIONS:
        return _EXCEPTIONS[word]
    word = word.lstrip("'")
    if word.startswith("y"):
        word = "Y" + word[1:]
    chars = list(word)
    for i in range(1, len(chars)):
        if chars[i] == "y" and chars[i - 1] in _VOWELS:
            chars[i] = "Y"
    word = "".join(chars)
    r1, r2 = _r1_r2(word)

    # Step 0: possessives.
    for suffix in ("'s'", "'s", "'"):
        if word.endswith(suffix):
            word = word[: -len(suffix)]
            break
    # Step 1a: plurals.
    if word.endswith("sses"):
        word = word[:-2]
    elif word.endswith(("ied", "ies")):
        word = word[:-2] if len(word) > 4 else word[:-1]
    elif word.endswith(("us", "ss")):
        pass
    elif word.endswith("s") and any(c in _VOWELS for c in word[:-2]):
        word = word[:-1]
    if word in _AFTER_1A:
        return word
    # Step 1b.
    if word.endswith(("eedly", "eed")):
        suffix = "eedly" if word.endswith("eedly") else "eed"
        if len(word) - len(suffix) >= r1:
            word = word[: -len(suffix)] + "ee"
    else:
        for suffix in ("ingly", "edly", "ing", "ed"):
            if word.endswith(suffix):
                stem_part = word[: -len(suffix)]
                if any(c in _VOWELS for c in stem_part):
                    word = stem_part
                    if word.endswith(("at", "bl", "iz")):
                        word += "e"
                    elif word.endswith(_DOUBLES):
                        if not (len(word) == 3 and word[0] in "aeo"):  # add, egg, odd stay
                            word = word[:-1]
                    elif r1 >= len(word) and _short_syllable_end(word):
                        word += "e"
                break
    # Step 1c.
    if len(word) > 2 and word[-1] in "yY" and word[-2] not in _VOWELS:
        word = word[:-1] + "i"
    # Step 2 (each step's loop only runs when one of its suffixes is there).
    for suffix, replacement in _STEP2 if word.endswith(_STEP2_ENDS) else ():
        if word.endswith(suffix):
            if len(word) - len(suffix) >= r1:
                if suffix == "ogi":
                    if word[-4:-3] == "l":
                        word = word[:-3] + replacement
                elif suffix == "li":
                    if word[-3:-2] in _LI_ENDING and len(word) >= 3:
                        word = word[:-2]
                else:
                    word = word[: -len(suffix)] + replacement
            break
    # Step 3.
    for suffix, replacement in _STEP3 if word.endswith(_STEP3_ENDS) else ():
        if word.endswith(suffix):
            if len(word) - len(suffix) >= r1:
                if suffix == "ative":
                    if len(word) - len(suffix) >= r2:
                        word = word[:-5]
                else:
                    word = word[: -len(suffix)] + replacement
            break
    # Step 4.
    for suffix in _STEP4 if word.endswith(_STEP4) else ():
        if word.endswith(suffix):
            if len(word) - len(suffix) >= r2:
                if suffix == "ion":
                    if word[-4:-3] in ("s", "t"):
                        word = word[:-3]
                else:
                    word = word[: -len(suffix)]
            break
    # Step 5.
    if word.endswith("e"):
        if len(word) - 1 >= r2 or (len(word) - 1 >= r1 and not _short_syllable_end(word[:-1])):
            word = word[:-1]
    elif word.endswith("ll") and len(word) - 1 >= r2:
        word = word[:-1]
    return word.replace("Y", "y")
