"""The doc-example runner (scripts/doc-examples) fails when the GUIDE drifts: a scratch copy with a broken example."""
import importlib.machinery
import importlib.util
import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RUNNER = os.path.join(ROOT, "scripts", "doc-examples")


def runner():
    loader = importlib.machinery.SourceFileLoader("doc_examples", RUNNER)
    spec = importlib.util.spec_from_loader("doc_examples", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def test_an_ellipsis_stands_for_what_varies_and_nothing_else():
    matches = runner().output_matches
    assert matches(["Exported … posts."], ["Exported 100 posts."])
    assert matches(["first", "…", "last"], ["first", "last"])
    assert matches(["first", "…", "last"], ["first", "a", "b", "last"])
    assert not matches(["first", "…", "last"], ["first", "a", "b"])
    assert not matches(["Exported … posts."], ["Exported 100 posts, 2 skipped."])
    assert not matches(["exit status 0"], ["exit status 1"])
    assert not matches(["a"], ["a", "b"])


def broken_copy(tmp_path):
    """The GUIDE with three mistakes: an output that differs, an option help does not list, an unmarked block."""
    with open(os.path.join(ROOT, "docs", "GUIDE.md"), encoding="utf-8") as file:
        text = file.read()
    edits = [("Stopped tracking “#busy”.", "Stopped tracking “#busy” for good."),
             ("smashtag trend TERM [--mention M]", "smashtag trend TERM [--mentoin M]"),
             ("```yaml no-run: Kubernetes's configuration", "```yaml")]
    for old, new in edits:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path = tmp_path / "GUIDE.md"
    path.write_text(text, encoding="utf-8")
    lines = text.split("\n")
    def line_of(new):
        return next(i + 1 for i, line in enumerate(lines) if line == new or (new in line and "```" not in new))

    return path, [line_of(new) for _, new in edits]


def test_a_broken_example_in_a_copy_of_the_guide_fails_the_run(tmp_path):
    path, broken_lines = broken_copy(tmp_path)
    run = subprocess.run([RUNNER, str(path)], capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert run.returncode == 1, run.stdout + run.stderr
    # A mismatch is reported at its command, the line above the output.
    assert f"GUIDE.md:{broken_lines[0] - 1}: `smashtag untrack '#busy'` printed something else:" in run.stderr
    assert "+Stopped tracking “#busy”." in run.stderr and "-Stopped tracking “#busy” for good." in run.stderr
    assert f"GUIDE.md:{broken_lines[1]}:" in run.stderr and "lists no --mentoin" in run.stderr
    assert f"GUIDE.md:{broken_lines[2]}: a ```yaml block is neither console, sh nor marked" in run.stderr
    assert "; 3 wrong;" in run.stdout, run.stdout
