"""The operator terms of a SQLite corpus (`#tag`, `from:user`, …) by how many posts they are in, read from the search
index's vocabulary (fts5vocab) and spelt back from their tokens (Sources/Corpus/SQLite/SearchTokens.swift).

As a program: corpus_terms.py CORPUS PREFIX LIMIT [--rarest] prints one key per line, the most used first (or the
least used, each in more than one post); corpus_terms.py CORPUS --pair-queries N prints `pair_queries` of the N most
used hashtags, one a line; --search-paths N prints them as the Search page's paths (`/search?q=…`)."""
import sqlite3
import sys
import urllib.parse

TERM_MARK, ESCAPE = "\ue000", "\ue002"


def key(token):
    """A term's key from its token, or None for a word or a pair."""
    if not token.startswith(TERM_MARK):
        return None
    spelt, i = [], 1
    while i < len(token):
        if token[i] == ESCAPE and token[i + 1:i + 2] == ESCAPE:
            spelt.append(ESCAPE)
            i += 2
        elif token[i] == ESCAPE:
            spelt.append(chr(int(token[i + 1:i + 3], 16)))
            i += 3
        else:
            spelt.append(token[i])
            i += 1
    return "".join(spelt)


def terms(path, prefix, limit, rarest=False):
    """The keys starting with `prefix`, by the number of posts they are in."""
    db = sqlite3.connect(path)
    db.execute("CREATE VIRTUAL TABLE temp.vocabulary USING fts5vocab(main, searchIndex, 'row')")
    # Terms sort after every word (their mark is the first private-use character), so the scan starts there.
    rows = db.execute("SELECT term, doc FROM temp.vocabulary WHERE term >= ?", (TERM_MARK,))
    found = [(doc, spelt) for token, doc in rows if (spelt := key(token)) and spelt.startswith(prefix)]
    if rarest:
        found = sorted((doc, spelt) for doc, spelt in found if doc > 1)
    else:
        found.sort(key=lambda row: (-row[0], row[1]))
    return [spelt for _, spelt in found[:limit]]


def pair_queries(tags):
    """The write-heavy mix of the web and store benchmarks: `#a OR #b`, then `#a -#b`, over neighbouring tags."""
    pairs = list(zip(tags, tags[1:] + tags[:1]))
    return [f"{a} OR {b}" for a, b in pairs] + [f"{a} -{b}" for a, b in pairs]


if __name__ == "__main__":
    if sys.argv[2] == "--pair-queries":
        print("\n".join(pair_queries(terms(sys.argv[1], "#", int(sys.argv[3])))))
    elif sys.argv[2] == "--search-paths":
        queries = pair_queries(terms(sys.argv[1], "#", int(sys.argv[3])))
        print("\n".join("/search?q=" + urllib.parse.quote(query, safe="") for query in queries))
    else:
        print("\n".join(terms(sys.argv[1], sys.argv[2], int(sys.argv[3]), "--rarest" in sys.argv[4:])))
