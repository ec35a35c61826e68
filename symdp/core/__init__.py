"""The bottom layer, importing nothing else of symdp: errors, the shared symbols,
parameter validation, the special functions Phi and PhiInv, and the Enumerated node."""
