// The SmashtagWeb module; see docs/ARCHITECTURE.md.
