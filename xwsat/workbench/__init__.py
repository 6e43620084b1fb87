"""The constructor's workbench: ``xwsat serve``, a local web page to draw, lock, autofill and
see what cannot be filled, live. The page computes nothing the library does."""
