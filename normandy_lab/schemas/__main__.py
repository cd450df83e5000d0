"""``python -m normandy_lab.schemas``: write ``schemas/<kind>.schema.json`` for every file kind again."""

from __future__ import annotations

from normandy_lab.schemas.kinds import write_json_schemas


def main() -> None:
    """Write every file kind's JSON Schema into the repository's ``schemas/`` folder, naming each file."""
    for written in write_json_schemas():
        print("wrote", written)


if __name__ == "__main__":
    main()
