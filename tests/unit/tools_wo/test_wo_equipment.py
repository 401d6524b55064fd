"""Equipment resolution: codes and chiller names, case- and whitespace-insensitive."""

from __future__ import annotations

from tools.wo.equipment import EquipmentDirectory

PAIRS = [("CWC04009", "Chiller 9"), ("CWC04006", "Chiller 6"), ("CWC04009", None), ("CWC04010", "Chiller 10"),
         ("CWC04701", ""), (None, "Chiller 99")]


def test_codes_resolve_case_and_space_insensitively() -> None:
    directory = EquipmentDirectory.from_pairs(PAIRS)
    assert directory.resolve("CWC04009") == "CWC04009"
    assert directory.resolve("  cwc04009 ") == "CWC04009"


def test_chiller_names_resolve_to_their_code() -> None:
    directory = EquipmentDirectory.from_pairs(PAIRS)
    assert directory.resolve("Chiller 9") == "CWC04009"
    assert directory.resolve("chiller   10") == "CWC04010"


def test_a_single_code_written_inside_the_text_resolves() -> None:
    directory = EquipmentDirectory.from_pairs(PAIRS)
    assert directory.resolve("Chiller 9 (CWC04009)") == "CWC04009"
    assert directory.resolve("CWC04009 or CWC04006") is None


def test_unknown_names_do_not_resolve_and_the_message_lists_known_equipment() -> None:
    directory = EquipmentDirectory.from_pairs(PAIRS)
    assert directory.resolve("Chiller 5") is None
    assert directory.resolve("Chiller 99") is None  # a name without a code is not equipment
    assert directory.resolve("") is None
    message = directory.unknown_message("Chiller 5")
    assert "'Chiller 5'" in message
    assert "CWC04009 (Chiller 9)" in message
    assert "CWC04701" in message


def test_empty_directory_says_no_equipment_is_loaded() -> None:
    directory = EquipmentDirectory.from_pairs([])
    assert directory.is_empty
    assert "no equipment is loaded" in directory.unknown_message("Chiller 9")
