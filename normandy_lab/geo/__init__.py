"""The real Earth: the gazetteer of places and the geography the terrain is derived from.

``gazetteer``: named places with their sources; ``geography``: coast, rivers, roads, railways, built-up
areas, woods, bocage and marsh.
"""
