"""What a "which X" question picks among: the noun the wh-determiner governs names the listing.

"Which rule is the worst offender?" ranks the alert rules of the chiller discussed, "which of those jobs
took longest?" the work orders; "which one?" or "which chiller?" picks a chiller (None here). The nouns are
topic words, so they live in the vocabulary (`pick_objects`); the grammar is this module's.
"""

from __future__ import annotations

import re

from graph.understanding.vocabulary import Vocabulary

# "which rule", "which of the rules", "which of its alarms", "which single rule": up to one word between.
_WHICH = re.compile(r"\b(?:which|what) (?:of (?:the|those|these|its|their|his|her) )?((?:[\w/-]+ ){0,2}[\w/-]+)")


def picked_listing(clause: str, vocab: Vocabulary) -> str | None:
    """The listing intent a "which X" question in the normalised `clause` picks from, or None."""
    for match in _WHICH.finditer(clause):
        words = match.group(1).split()
        for start in range(min(2, len(words))):
            for intent, nouns in vocab.pick_objects.items():
                for noun in sorted(nouns, key=len, reverse=True):
                    size = len(noun.split())
                    if words[start:start + size] == noun.split() and (start == 0 or size == 1):
                        return intent
    return None
