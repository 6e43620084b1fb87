"""``python -m xwsat``: the same command line as the ``xwsat`` script, for an environment
whose scripts folder is not on the PATH."""

try:
    from xwsat.start import main
except KeyboardInterrupt:  # Ctrl-C in the instant before xwsat.start holds the signals
    import sys

    sys.stderr.write("xwsat: interrupted\n")
    raise SystemExit(3) from None

main()
