"""``python -m generator ARGS``: the ``sheetsmith`` command, where its console script is not on the path."""

if __name__ == "__main__":  # (a worker process imports this module again under another name: nothing runs then)
    from generator.cli.launch import main

    main()
