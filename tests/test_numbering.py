"""The four printed numbering schemes: parsing, formatting and errors."""

from __future__ import annotations

import pytest

from normandy_lab import SYSTEMS, HexIdError, grid, scheme


def test_parse_and_format_are_inverse_for_every_hex(any_grid):
    s = any_grid.scheme
    for hex_id in any_grid.ids():
        letter, row, col = s.parse(hex_id)
        assert s.format(letter, row, col) == hex_id


def test_every_printed_id_of_every_sheet_round_trips(system):
    s = scheme(system)
    for sheet in s.sheets.values():
        for row in range(sheet.rows[0], sheet.rows[1] + 1):
            for col in range(sheet.cols[0], sheet.cols[1] + 1):
                if not sheet.contains(row, col):
                    continue
                hex_id = s.format(sheet.letter, row, col)
                assert s.parse(hex_id) == (sheet.letter, row, col)


@pytest.mark.parametrize(
    ("system", "hex_id", "expected"),
    [
        ("bfn", "C3014", ("C", 30, 14)),  # Pegasus Bridge, rule 19.8: row 30, column 14
        ("cobra", "A2116", ("A", 16, 21)),  # Vire, rule 5.9.1b: column 21, row 16
        ("kg", "N3139", ("N", 31, 39)),  # Mulberry B, rule 26.4.2: row 31, column 39
        ("gts", "30.027", ("", 27, 30)),  # St-Martin battery, rule 4.4.7: column 30, row 027
    ],
)
def test_rulebook_examples_parse(system, hex_id, expected):
    assert scheme(system).parse(hex_id) == expected


def test_ids_are_case_and_space_tolerant():
    assert scheme("bfn").parse(" c3014 ") == ("C", 30, 14)


@pytest.mark.parametrize(
    ("system", "bad"),
    [
        ("bfn", "C301"),
        ("bfn", "H3014"),
        ("bfn", "3014"),
        ("cobra", "C2116"),
        ("cobra", "A21.16"),
        ("kg", "N31390"),
        ("kg", "X3139"),
        ("gts", "30027"),
        ("gts", "30.27"),
        ("gts", "A30.027"),
    ],
)
def test_malformed_ids_say_system_form_and_input(system, bad):
    with pytest.raises(HexIdError) as info:
        scheme(system).parse(bad)
    message = str(info.value)
    assert system in message
    assert repr(bad) in message
    assert scheme(system).example in message or "sheet" in message


@pytest.mark.parametrize(
    ("system", "off_map"),
    [
        ("bfn", "A9999"),
        ("bfn", "C0000"),
        ("cobra", "A0234"),
        ("cobra", "B0130"),
        ("kg", "N9901"),
        ("gts", "99.999"),
    ],
)
def test_off_map_ids_are_refused_with_the_extent(system, off_map):
    with pytest.raises(HexIdError, match="off the map"):
        scheme(system).parse(off_map)


def test_non_string_id_is_refused():
    with pytest.raises(HexIdError, match="must be a string"):
        scheme("gts").parse(30.027)


def test_unknown_system_lists_the_systems():
    with pytest.raises(KeyError, match="bfn, cobra, kg, gts"):
        grid("tobruk")


def test_cobra_even_columns_have_one_row_fewer_on_map_a():
    # Rule 10.4b: the south edge of map A is the hexes ending in 33 or 34;
    # odd columns reach row 34, even columns row 33 (rule 13.1b: 4334 to 0233).
    s = scheme("cobra")
    assert s.parse("A4334") == ("A", 34, 43)
    assert s.parse("A0233") == ("A", 33, 2)
    with pytest.raises(HexIdError):
        s.parse("A0234")


def test_canonical_ids_are_unique(any_grid):
    ids = any_grid.ids()
    assert len(ids) == len(set(ids))


def test_systems_tuple():
    assert SYSTEMS == ("bfn", "cobra", "kg", "gts")


def test_a_printed_id_form_is_data_and_a_map_key_names_one_scheme():
    """Scheme.id_format prints GTS's CC.RRR (no code names the game); a second scheme under a key is refused."""
    import dataclasses

    from normandy_lab.errors import RefusedError
    from normandy_lab.grids.numbering import SCHEMES, register_scheme

    gts = scheme("gts")
    assert gts.id_format == "{col:02d}.{row:03d}" and gts.format("", 27, 30) == "30.027"
    assert dataclasses.replace(gts, id_format="").format("", 27, 30) == "3027"  # the default
    with pytest.raises(
        RefusedError, match="a different numbering scheme is registered under the map key 'bfn'"
    ):
        register_scheme(dataclasses.replace(scheme("bfn"), title="Not BfN"))
    register_scheme(scheme("bfn"))  # the same scheme again (a module imported twice): harmless
    assert SCHEMES["bfn"].title == "The Battle for Normandy"
    with pytest.raises(KeyError, match="unknown map 'tobruk'; the registered maps are bfn, cobra, kg, gts"):
        scheme("tobruk")


def test_a_shipped_map_comes_from_its_game_package_when_first_asked_for():
    """Issue 32 section 1: the schemes and vocabularies are data in ``rules/<game>/map.py``, not in the core.

    In a fresh process, the core alone (no registry imported) finds Cobra's map by asking the registry, which
    imports Cobra's package then, and no other game's; the old names still answer.
    """
    import subprocess
    import sys

    code = (
        "import sys; from normandy_lab.grids.numbering import scheme; from normandy_lab.terrain import vocab; "
        "games = lambda: sorted(g for g in ('bfn', 'cobra', 'kg', 'gts') "
        "if 'normandy_lab.rules.' + g in sys.modules); "
        "print(games()); s = scheme('cobra'); print(games()); "
        "print(s.format('A', 16, 21), vocab.vocabulary('cobra').sea, vocab.COBRA is vocab.vocabulary('cobra')); "
        "from normandy_lab.rules.cobra.map import SCHEME; print(s is SCHEME)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split("\n")[:4] == ["[]", "['cobra']", "A2116 All Sea True", "True"]


def test_the_core_tables_list_every_shipped_map_and_refuse_a_second_scheme_under_a_key():
    """Listing the tables loads what the registry can bring; a scheme under a held key must be that scheme."""
    import dataclasses

    from normandy_lab.errors import RefusedError
    from normandy_lab.grids.numbering import SCHEMES, register_scheme
    from normandy_lab.rules.kg.map import SCHEME
    from normandy_lab.terrain.vocab import VOCABULARIES

    assert {"bfn", "cobra", "kg", "gts"} <= set(SCHEMES) and {"bfn", "cobra", "kg", "gts"} <= set(VOCABULARIES)
    assert SCHEMES["kg"] is SCHEME and "kg" in SCHEMES and SCHEMES.get("tobruk") is None
    with pytest.raises(RefusedError):
        register_scheme(dataclasses.replace(SCHEME, example="N0101"))
