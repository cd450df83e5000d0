"""Moved to ``normandy_lab.grids.coastfit`` (issue 15); this path works for one release."""

from normandy_lab._moved import alias

alias(__name__)
