"""The ground floor of sheetsmith: what every other package builds on.

Card codes, problems and errors, YAML read with positions, validated models,
checks of what users write, names from the file system, where shipped data
lives and atomic writes.  Imports nothing else of sheetsmith.
"""
