// The Corpus module; see docs/ARCHITECTURE.md.
