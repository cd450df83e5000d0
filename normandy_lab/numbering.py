"""Moved to ``normandy_lab.grids.numbering`` (issue 15); this path works for one release."""

from normandy_lab._moved import alias

alias(__name__)
