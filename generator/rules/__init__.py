"""Rules engines: pure game logic (scoring, validation), no I/O and no drawing."""
