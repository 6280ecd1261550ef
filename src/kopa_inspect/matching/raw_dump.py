"""A pasted tool output (JSON, XML, envelope fields, API field names) is no answer."""

from __future__ import annotations

import json
import re

_ENVELOPE_FIELDS = re.compile(
    r"\b(?:resultCode|resultMsg|totalCount|numOfRows|pageNo|_truncated|list_total_count|RESULT|CODE|MESSAGE)\b"
)
_KEY_VALUE = re.compile(r"(?<![\w])(?:[a-z]+[A-Z][A-Za-z0-9]*|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)\s*[:=]")
_XML_ELEMENT = re.compile(r"<([A-Za-z_][\w.-]*)(?:\s[^<>]*)?>[^<>]*</\1>")
_XML_ENVELOPE = re.compile(r"</?(?:response|header|body|items|item|row|head)\b[^>]*>", re.I)


def is_raw_dump(answer: str) -> bool:
    """Whether ``answer`` pastes tool output (JSON, XML, or API ``field: value`` listings)."""
    text = answer or ""
    if len(_XML_ELEMENT.findall(text)) >= 2 or len(_XML_ENVELOPE.findall(text)) >= 2:
        return True
    decoder = json.JSONDecoder()
    for m in re.finditer(r"[{\[]", text):
        try:
            obj, _ = decoder.raw_decode(text, m.start())
        except ValueError:
            continue
        if (isinstance(obj, dict) and obj) or (
            isinstance(obj, list) and any(isinstance(x, dict | list) for x in obj)
        ):
            return True
    if (
        re.search(r'"[^"\n]{1,40}"\s*:\s*["\d\[{]', text)
        and len(re.findall(r'"[^"\n]{1,40}"\s*:', text)) >= 2
    ):
        return True
    pairs = len(_KEY_VALUE.findall(text))
    return pairs >= 3 or (
        pairs >= 1
        and bool(_ENVELOPE_FIELDS.search(text))
        and pairs + len(_ENVELOPE_FIELDS.findall(text)) >= 2
    )
