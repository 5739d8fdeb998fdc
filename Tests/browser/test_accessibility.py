"""Accessibility (issue 33): axe-core on every page a person reaches, each reached by typing and tapping, in light and
dark at 390×844, with no violation; and the keyboard alone reaches every control, each visibly focused."""
import pytest
from axe_playwright_python.sync_playwright import Axe

from conftest import next_frame, open_app, screenshot, search, tap, tap_tab, wait_until

AXE = Axe()
SIZE = {"width": 390, "height": 844}


# How a person reaches each page, from the app's start.
def search_root(page, server):
    open_app(page, server)


def search_typed(page, server):
    search(open_app(page, server), "#stanford")


def search_pushed(page, server):
    """A search pushed onto the Recents tab (a Recents row): back and back-to-start controls."""
    search_typed(page, server)
    tap_tab(page, "Recents")
    tap(page, "li.recent .term:text-is('#stanford')")
    assert page.locator("a.back").count() == 1


def mentions(page, server):
    """The Mentions page of a post with images."""
    search(open_app(page, server), "filter:media #stanford")
    tap(page, "li.post a.row >> nth=0")
    assert page.locator("li.image").count() > 0


def thread(page, server):
    """A reply's thread, from the Search page's "Show thread"."""
    search(open_app(page, server), "filter:replies")
    tap(page, "li.post a.thread >> nth=0")
    page.locator("li.post.focus").wait_for()


def images(page, server):
    search(open_app(page, server), "#swift")
    tap(page, "a.images-link")
    page.locator(".image-grid a.cell").first.wait_for()


def viewer(page, server):
    mentions(page, server)
    tap(page, "li.image a >> nth=0")
    page.locator(".scripted > #viewer-image").wait_for()


def recents(page, server):
    search_typed(page, server)
    tap_tab(page, "Recents")


def popularity(page, server):
    recents(page, server)
    tap(page, "li.recent[data-term='#stanford'] .detail")
    page.locator("section.popular li").first.wait_for()


def trend(page, server):
    popularity(page, server)
    tap(page, page.locator("section.popular li a.trend").first)
    page.locator("svg.chart").wait_for()


PAGES = [search_root, search_typed, search_pushed, mentions, thread, images, viewer, recents, popularity, trend]


def describe(violations):
    lines = []
    for violation in violations:
        lines.append(f"{violation['id']} ({violation['impact']}): {violation['help']} — {violation['helpUrl']}")
        for node in violation["nodes"]:
            lines.append(f"    {' '.join(map(str, node['target']))}: {node['html'][:300]}")
            summary = (node.get("failureSummary") or "").replace("\n", " ")
            if summary:
                lines.append(f"        {summary[:400]}")
    return "\n".join(lines)


@pytest.fixture(params=["light", "dark"])
def scheme_page(request, browser):
    # axe is injected with page.evaluate (the DevTools protocol), which the site's Content-Security-Policy
    # (no eval, no inline script) does not govern: no bypass_csp needed, so axe sees the page as it is served.
    context = browser.new_context(viewport=SIZE, color_scheme=request.param, device_scale_factor=2)
    page = context.new_page()
    page.scheme = request.param
    yield page
    context.close()


@pytest.mark.parametrize("reach", PAGES, ids=[reach.__name__ for reach in PAGES])
def test_axe_finds_no_violation(scheme_page, server, reach):
    page = scheme_page
    reach(page, server)
    page.wait_for_load_state("load")
    results = AXE.run(page).response
    violations = results["violations"]
    # What axe could not decide is left to a person; the bars' icons are drawn so that it can (they were glyphs).
    undecided = [node["target"] for rule in results["incomplete"] if rule["id"] == "color-contrast"
                 for node in rule["nodes"] if any("tabs" in str(target) or ".nav" in str(target)
                                                  for target in node["target"])]
    assert undecided == [], f"{reach.__name__}: axe cannot tell the contrast of {undecided}"
    report = describe(violations)
    if violations:
        print(f"\naxe on {reach.__name__} ({page.scheme}), {page.url}:\n{report}")
    assert violations == [], f"{reach.__name__} ({page.scheme}):\n{report}"


# The keyboard alone: Tab visits every control of the page in turn, and each shows it has the focus.
FOCUSABLE = ("a[href], button:not([disabled]), input:not([type=hidden]):not([disabled]), select:not([disabled]), "
             "textarea:not([disabled]), summary, [tabindex]:not([tabindex='-1'])")

MARK = """(elements) => elements
    .filter(e => e.checkVisibility({ visibilityProperty: true, opacityProperty: true }) && e.getClientRects().length)
    .filter(e => !e.closest('[inert], details:not([open]) > :not(summary)'))
    .map((e, i) => {
        e.dataset.keyboardTest = String(i);
        const style = getComputedStyle(e);
        return { id: String(i), html: e.outerHTML.slice(0, 160),
                 ring: [style.outlineStyle, style.outlineWidth, style.outlineColor, style.boxShadow].join(' | ') };
    })"""

FOCUSED = """() => {
    const e = document.activeElement;
    if (!e || e === document.body || !e.dataset.keyboardTest) return null;
    const style = getComputedStyle(e);
    const ring = [style.outlineStyle, style.outlineWidth, style.outlineColor, style.boxShadow].join(' | ');
    const shows = (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none';
    // On screen, and not under the fixed title or tab bar: half the points down its middle are the element itself.
    const box = e.getBoundingClientRect();
    const top = Math.max(box.top, 0), bottom = Math.min(box.bottom, innerHeight);
    const x = Math.min(Math.max((box.left + box.right) / 2, 0), innerWidth - 1);
    let hits = 0, cover = null;
    for (let k = 0; k < 10 && bottom > top; k++) {
        const hit = document.elementFromPoint(x, top + (bottom - top) * (k + 0.5) / 10);
        if (hit && (hit === e || e.contains(hit))) hits++; else if (hit) cover = hit.outerHTML.slice(0, 80);
    }
    const where = `at ${Math.round(box.top)}–${Math.round(box.bottom)} of ${innerHeight}` + (cover ? `, under ${cover}` : '');
    return { id: e.dataset.keyboardTest, ring, shows, seen: hits >= 5, where };
}"""


def tab_through(page, key):
    """Presses `key` (Tab, or Shift+Tab to go backwards) from the top of the page until the focus has been round:
    the controls never reached, and what a person would not see on the way."""
    controls = page.eval_on_selector_all(FOCUSABLE, MARK)
    assert controls, "no control on the page"
    by_id = {control["id"]: control for control in controls}
    page.evaluate("() => { document.activeElement && document.activeElement.blur(); scrollTo(0, 0); }")
    next_frame(page)
    reached, problems = [], []
    for _ in range(len(controls) + 20):
        page.keyboard.press(key)
        next_frame(page)  # the focus has moved and the page has scrolled to it
        focused = page.evaluate(FOCUSED)
        if focused is None:
            if reached:
                break  # past the last control
            continue
        if focused["id"] in reached:
            break  # round again
        reached.append(focused["id"])
        control = by_id[focused["id"]]
        if not focused["shows"] or focused["ring"] == control["ring"]:
            problems.append(f"{key}: no visible focus ring ({focused['ring']}): {control['html']}")
        if not focused["seen"]:
            # A bounded wait, in case a layout shift (a font, an image) is still settling.
            settled = lambda: (lambda now: now if now and now["seen"] else None)(page.evaluate(FOCUSED))
            focused = wait_until(page, settled, timeout=1) or page.evaluate(FOCUSED)
            if not focused or not focused["seen"]:
                problems.append(f"{key}: focused but hidden ({focused and focused['where']}): {control['html']}")
                screenshot(page, f"keyboard-hidden-{key.replace('+', '-')}-{len(problems)}")
    missed = [by_id[i]["html"] for i in by_id if i not in reached]
    return missed, problems


@pytest.fixture
def keyboard_page(browser):
    context = browser.new_context(viewport=SIZE)
    page = context.new_page()
    yield page
    context.close()


@pytest.mark.parametrize("reach", [search_typed, mentions], ids=["search", "mentions"])
def test_the_keyboard_reaches_every_control_and_shows_where_it_is(keyboard_page, server, reach):
    page = keyboard_page
    page.viewport_name = reach.__name__  # names its screenshots
    reach(page, server)
    missed, problems = [], []
    # Forwards, and backwards from the top (Shift+Tab goes to the tab bar, then up the page from its end).
    for key in ["Tab", "Shift+Tab"]:
        key_missed, key_problems = tab_through(page, key)
        missed += [f"{key}: {html}" for html in key_missed]
        problems += key_problems
    assert missed == [], "never reached:\n" + "\n".join(missed)
    assert problems == [], "\n".join(problems)
