"""How the analysis scripts end on bad input: one line that says what is wrong, not a traceback."""


def run(name, main):
    """Runs main(); a missing file, or a CSV without the expected columns, exits with one line."""
    try:
        main()
    except OSError as e:
        raise SystemExit(f"{name}: {e} (see --help for the files it reads)")
    except KeyError as e:  # a CSV another tool wrote
        raise SystemExit(f"{name}: a CSV has no column {e} (see --help for the files it reads)")
