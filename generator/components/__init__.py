"""Print-and-play components: decks of cards and chip sheets, laid out for home printing."""
