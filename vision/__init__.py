"""Camera recognition of pegs on the board (optional extra `vision`)."""
