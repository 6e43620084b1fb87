"""``python -m xwsat``: the same command line as the ``xwsat`` script, for an environment
whose scripts folder is not on the PATH."""

from xwsat.start import main

main()
