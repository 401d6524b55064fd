"""Equipment resolution: accept a Maximo code (CWC04009) or a chiller name (Chiller 9).

Pure: the directory is built from (equipment_id, equipment_name) pairs that the caller read from the
data (assets, work orders, events, alerts), so the same rules hold for generated and imported fleets.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field


def _normalise(text: str) -> str:
    """Case- and whitespace-insensitive form of a code or name ("  chiller   9 " -> "chiller 9")."""
    return " ".join(text.split()).lower()


@dataclass(frozen=True)
class EquipmentDirectory:
    """Known equipment: code -> display name, plus lookups by normalised code and name."""

    names_by_code: dict[str, str] = field(default_factory=dict)

    @classmethod
    def from_pairs(cls, pairs: Iterable[tuple[str | None, str | None]]) -> EquipmentDirectory:
        """Build from (equipment_id, equipment_name) pairs; the first non-empty name of a code wins."""
        names: dict[str, str] = {}
        for code, name in pairs:
            if not code or not code.strip():
                continue
            code = code.strip()
            if not names.get(code) and name and name.strip():
                names[code] = name.strip()
            else:
                names.setdefault(code, "")
        return cls(dict(sorted(names.items())))

    @property
    def is_empty(self) -> bool:
        return not self.names_by_code

    def resolve(self, query: str) -> str | None:
        """The equipment code `query` denotes, or None.

        Tried in order: the code itself, the chiller name (both case- and whitespace-insensitive),
        then a single known code written inside the text (e.g. "Chiller 9 (CWC04009)").
        """
        wanted = _normalise(query)
        if not wanted:
            return None
        for code in self.names_by_code:
            if _normalise(code) == wanted:
                return code
        named = [code for code, name in self.names_by_code.items() if name and _normalise(name) == wanted]
        if len(named) == 1:
            return named[0]
        embedded = {
            code for code in self.names_by_code
            if re.search(rf"(?<![a-z0-9]){re.escape(code.lower())}(?![a-z0-9])", wanted)
        }
        return embedded.pop() if len(embedded) == 1 else None

    def describe(self) -> str:
        """The known equipment as "CWC04006 (Chiller 6), CWC04009 (Chiller 9), ..." for messages."""
        return ", ".join(f"{code} ({name})" if name else code for code, name in self.names_by_code.items())

    def unknown_message(self, query: str) -> str:
        """An actionable error for an equipment id that matches nothing."""
        if self.is_empty:
            return f"Unknown equipment_id '{query}': no equipment is loaded (load a fleet first)."
        return (
            f"Unknown equipment_id '{query}'. Use an equipment code or chiller name; "
            f"known equipment: {self.describe()}."
        )
