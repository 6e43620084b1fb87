"""``python -m xwsat``: the same command line as the ``xwsat`` script, for an environment
whose scripts folder is not on the PATH."""

try:
    from xwsat.start import main
except KeyboardInterrupt:  # Ctrl-C in the instant before xwsat.start holds the signals
    import sys

    try:  # a --json command still prints its record; a second Ctrl-C here gives up on it
        from xwsat.cli import json_command
        from xwsat.commands.common import stopped_record

        stopped_record(json_command(sys.argv[1:]), "interrupted", "interrupted")
    except BaseException:  # noqa: BLE001, S110 (the exit below is all that matters now)
        pass
    sys.stderr.write("xwsat: interrupted\n")
    raise SystemExit(3) from None

main()
