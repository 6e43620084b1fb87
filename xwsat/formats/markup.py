"""The HTML an .ipuz clue may hold, and its plain text for the formats that hold none.

ipuz clues may carry a few HTML tags (``<i>`` for a title, ``<b>``, ``<sup>``, ``<br/>``...)
and entities (``&amp;``). A ``.puz`` shows its text as it is, and the solving page shows clues
as text, so both get the words without the tags: "<i>Hamlet</i> prince" reads "Hamlet prince",
not the tags. The puzzle itself keeps the markup, so an .ipuz or .json written again has it.
Only the ipuz tags and well-formed entities count: a clue such as "x < y" or "AT&T" is text.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable

_TAG = re.compile(r"<\s*/?\s*(?:b|i|s|u|em|strong|big|small|sup|sub|br|span)\b[^<>]*>",
                  re.IGNORECASE)
_BREAK = re.compile(r"<\s*br\b[^<>]*>", re.IGNORECASE)
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")


def has_markup(text: str) -> bool:
    """Whether ``text`` holds an ipuz tag or an HTML entity."""
    return bool(_TAG.search(text) or _ENTITY.search(text))


def plain_text(text: str) -> str:
    """``text`` without its ipuz tags (a line break becomes a space) and with its entities
    spelt as the characters they stand for; text without markup comes back unchanged."""
    if not has_markup(text):
        return text
    text = _TAG.sub("", _BREAK.sub(" ", text))
    text = _ENTITY.sub(lambda m: html.unescape(m.group(0)), text)
    return re.sub(r"  +", " ", text).strip()


def markup_count(texts: Iterable[str | None]) -> int:
    """How many of ``texts`` hold markup that a plain-text format spells out."""
    return sum(1 for text in texts if text and has_markup(text))
