"""Why a unit is out of supply, as data: a code, the rule, the blocks, and words made from them.

The supply report gives every unit out of General Supply one *reason code*
(what binds), the rule number behind it, and the blocks found on its way,
each marked as *the* cause (removing it alone restores supply) or as only
"in the way".  The views and the what-if tables read the code, never the
words; the words are made here from the same facts.

Codes
-----
``blocked``
    One block on an otherwise short enough line is the cause: without it
    the unit would be in range (7.3, 5.4, 7.3.2).
``out_of_range``
    A legal line exists, but every one is longer than the limit (7.3.1 for
    units, 7.2 for division HQs); the shortfall is given.
``cut_off``
    No legal line of any length reaches any HQ or source the unit may use;
    the ring that closes it is named (7.3).
``hq_out_of_supply``
    The unit is within range of its division HQ, which is itself out of
    supply (7.2); the HQ's own reason follows.
``attachment_full``
    The only HQs within range may not take it: their places for attached
    units are taken (7.2, 20.3).
``not_designated``
    No line is traced in this game: the unit's division was not designated
    Supplied for the day (The Greatest Day's 17.3), or is held back (17.4).
``exempt``
    Not a failure: the unit is in supply by a rule that exempts it from
    tracing (a landing turn on which every unit counts as supplied, say);
    the rule is given, and the line is empty.
"""

from __future__ import annotations

from dataclasses import dataclass, field

BLOCKED = "blocked"
OUT_OF_RANGE = "out_of_range"
CUT_OFF = "cut_off"
HQ_OUT_OF_SUPPLY = "hq_out_of_supply"
ATTACHMENT_FULL = "attachment_full"
EXEMPT = "exempt"
NOT_DESIGNATED = "not_designated"

#: Each code in teaching words, for tables and keys.
CODE_WORDS = {
    BLOCKED: "a single block on its line",
    OUT_OF_RANGE: "beyond range",
    CUT_OFF: "cut off",
    HQ_OUT_OF_SUPPLY: "its division HQ is out of supply",
    ATTACHMENT_FULL: "no attachment place left",
    EXEMPT: "in supply by an exemption",
    NOT_DESIGNATED: "its division not designated Supplied",
}

#: The rule behind each kind of block.
BLOCK_RULES = {"enemy": "7.3", "ezoc": "5.4, 7.3", "water": "7.3.2", "interdicted": "what-if", "sea": "7.3"}


@dataclass
class Block:
    """One thing in the way of a line of supply.

    Attributes
    ----------
    kind
        ``"enemy"`` (enemy units in the hex), ``"ezoc"`` (a vacant hex in an
        enemy zone of control), ``"water"`` (an unbridged stream or river
        hexside beyond the unit's own first step), ``"interdicted"`` (an
        analyst's interdicted hex) or ``"sea"``.
    hex
        The blocked hex (for water: the hex on the far bank).
    units
        The enemy units in the hex, or exerting the zone of control into it.
    water, near_hex
        For water: its name, and the hex on the near bank.
    binding
        True when removing this block alone (the units, or bridging the
        hexside) restores the unit's supply; False when it is only in the way.
    """

    kind: str
    hex: str
    units: list[str] = field(default_factory=list)
    water: str = ""
    near_hex: str = ""
    binding: bool = False

    @property
    def rule(self) -> str:
        """The rule numbers that make this kind of block a block."""
        return BLOCK_RULES.get(self.kind, "7.3")

    def words(self) -> str:
        """Say what the block is: ``"the unbridged Aure between C4246 and C4146"``."""
        if self.kind == "water":
            return f"the unbridged {self.water or 'water'} between {self.near_hex} and {self.hex}"
        if self.kind == "ezoc":
            by = f" of {', '.join(self.units)}" if self.units else ""
            return f"the vacant hex {self.hex} in the zone of control{by}"
        if self.kind == "enemy":
            return f"enemy units in {self.hex} ({', '.join(self.units)})"
        if self.kind == "sea":
            return f"the sea at {self.hex}"
        return f"the interdicted hex {self.hex}"


def join_words(items: list[str], last: str = "and") -> str:
    """Join phrases as people do: "a", "a and b", "a, b and c" (or "a, b or c")."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {last} " + items[-1]


def mp_words(mp: float) -> str:
    """Say a supply MP count in whole numbers and thirds or halves: ``16 2/3 MP``, ``4 1/2 MP``."""
    sixths = round(mp * 6)
    whole, rest = divmod(sixths, 6)
    fraction = {0: "", 1: "1/6", 2: "1/3", 3: "1/2", 4: "2/3", 5: "5/6"}[rest]
    if not fraction:
        return f"{whole} MP"
    return f"{whole} {fraction} MP" if whole else f"{fraction} MP"


def count_words(value: float, unit: str) -> str:
    """Say a shortfall with its unit: ``1 hex``, ``3 hexes``, ``2 1/3 MP``."""
    if unit == "MP":
        return mp_words(value)
    n = int(value) if float(value).is_integer() else value
    return f"{n:g} {'hex' if n == 1 else 'hexes'}"
