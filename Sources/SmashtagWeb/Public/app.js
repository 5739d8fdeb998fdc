// Smashtag's little JavaScript: every page works without it. It adds Newer/Older in place (no post twice),
// pull-to-refresh on touch, swipe-left-to-delete in Recents, and sizes images whose proportions were unknown.
"use strict";

const list = document.querySelector("ol.posts");
const spinner = list && document.querySelector("a[data-page]") ? makeSpinner() : null;

// Shown while a page loads in place: the script's own, as a page without it never does.
function makeSpinner() {
  const box = document.createElement("div");
  box.className = "spinner";
  box.hidden = true;
  box.setAttribute("aria-live", "polite");
  box.textContent = "Loading…";
  list.before(box);
  return box;
}

// A row's post, "network:id": a row that links names it in its address (…/network/id), one without a link itself.
function postKey(row) {
  if (row.dataset.postId) return row.dataset.postId;
  const link = row.querySelector(":scope > a.row, :scope > .row > a.chevron");
  if (!link) return null;
  const [network, id] = link.pathname.split("/").slice(-2);
  return network + ":" + decodeURIComponent(id);
}

function knownIDs() {
  return new Set([...document.querySelectorAll("li.post")].map(postKey));
}

function showError(message, retry) {
  const box = document.createElement("div");
  box.className = "error";
  box.setAttribute("role", "alert");
  const text = document.createElement("p");
  text.textContent = message;
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = "Try again";
  button.addEventListener("click", () => { box.remove(); retry(); });
  box.append(text, button);
  list.before(box);
}

// Fetches a page of the same search and takes its rows, leaving out any already shown.
async function fetchRows(url) {
  const response = await fetch(url, { headers: { Accept: "text/html" } });
  if (!response.ok) throw new Error("status " + response.status);
  const page = new DOMParser().parseFromString(await response.text(), "text/html");
  const failure = page.querySelector(".error p");
  if (failure) throw new Error(failure.textContent);
  const known = knownIDs();
  const rows = [...page.querySelectorAll("li.post")].filter((row) => !known.has(postKey(row)));
  return { rows, page };
}

async function load(link, place) {
  if (link.dataset.busy) return;
  link.dataset.busy = "1";
  spinner.hidden = false;
  try {
    const { rows, page } = await fetchRows(link.href);
    place(rows, page);
  } catch (error) {
    showError("Could not load posts: " + error.message, () => load(link, place));
  } finally {
    delete link.dataset.busy;
    spinner.hidden = true;
  }
}

function loadNewer(link) {
  load(link, (rows, page) => {
    list.prepend(...rows.map((row) => document.adoptNode(row)));
    widenImages(page, "newest");
    const next = page.querySelector("a.newer");
    if (next) link.href = next.href;
  });
}

function loadOlder(link) {
  load(link, (rows, page) => {
    list.append(...rows.map((row) => document.adoptNode(row)));
    widenImages(page, "oldest");
    const next = page.querySelector("a.older");
    if (next) link.href = next.href; else link.remove();
  });
}

if (list) {
  document.addEventListener("click", (event) => {
    const link = event.target.closest("a[data-page]");
    if (!link) return;
    event.preventDefault();
    (link.dataset.page === "newer" ? loadNewer : loadOlder)(link);
  });

  // Pull to refresh: a downward drag of 70 px from the very top fetches newer posts.
  let startY = null;
  window.addEventListener("touchstart", (event) => {
    startY = window.scrollY === 0 ? event.touches[0].clientY : null;
  }, { passive: true });
  window.addEventListener("touchend", (event) => {
    const newer = document.querySelector("a.newer");
    if (startY !== null && newer && event.changedTouches[0].clientY - startY > 70) loadNewer(newer);
    startY = null;
  }, { passive: true });
}

// Swipe left on a recent term reveals and then presses its Delete button.
for (const row of document.querySelectorAll("li.recent")) {
  let startX = null;
  row.addEventListener("touchstart", (event) => { startX = event.touches[0].clientX; }, { passive: true });
  row.addEventListener("touchend", (event) => {
    if (startX !== null && startX - event.changedTouches[0].clientX > 80) {
      row.classList.add("swiped");
      row.querySelector("form.delete").requestSubmit();
    }
    startX = null;
  }, { passive: true });
}

// Popularity, live: the server sends the page's rows and its tracking line, rendered and escaped as the page
// renders them, whenever they change (a search here, in another tab, the tracker, or the CLI); EventSource
// reconnects by itself if the connection drops.
const popularity = document.getElementById("popularity");
if (popularity && window.EventSource) {
  const live = popularity.querySelector(".live");
  const rows = popularity.querySelector(".popular-rows");
  const events = new EventSource(popularity.dataset.events);
  events.addEventListener("open", () => { live.hidden = false; });
  events.addEventListener("error", () => { live.hidden = true; });
  const tracking = popularity.querySelector(".tracking-state");
  const replace = (target) => (event) => {
    const parsed = new DOMParser().parseFromString(`<body>${event.data}</body>`, "text/html");
    target.replaceChildren(...parsed.body.childNodes);
  };
  events.addEventListener("rows", replace(rows));
  if (tracking) events.addEventListener("tracking", replace(tracking));
}

// The image viewer: aspect-filled (the image covers the viewport, one side equal to it, centred); drag to pan,
// pinch, scroll or double-tap to zoom, never so the image leaves empty space; until the person zooms, a new
// viewport size (rotation, resize) fits it again.
const viewerImage = document.getElementById("viewer-image");
if (viewerImage) {
  const frame = viewerImage.parentElement;
  const view = { scale: 1, fill: 1, x: 0, y: 0, zoomed: false };
  const size = () => [viewerImage.naturalWidth || 1, viewerImage.naturalHeight || 1];

  function place() {
    const [width, height] = size();
    view.scale = Math.min(Math.max(view.scale, view.fill), view.fill * 8);
    const shownWidth = width * view.scale, shownHeight = height * view.scale;
    view.x = Math.min(0, Math.max(innerWidth - shownWidth, view.x));
    view.y = Math.min(0, Math.max(innerHeight - shownHeight, view.y));
    viewerImage.style.width = shownWidth + "px";
    viewerImage.style.height = shownHeight + "px";
    viewerImage.style.transform = `translate(${view.x}px, ${view.y}px)`;
  }

  function fit() {
    const [width, height] = size();
    view.fill = Math.max(innerWidth / width, innerHeight / height);
    view.scale = view.fill;
    view.x = (innerWidth - width * view.scale) / 2;
    view.y = (innerHeight - height * view.scale) / 2;
    place();
  }

  function zoom(atX, atY, factor) {
    const next = Math.min(Math.max(view.scale * factor, view.fill), view.fill * 8);
    view.x = atX - (atX - view.x) * (next / view.scale);
    view.y = atY - (atY - view.y) * (next / view.scale);
    view.scale = next;
    view.zoomed = true;
    place();
  }

  function start() {
    frame.classList.add("scripted");
    fit();
  }
  if (viewerImage.complete && viewerImage.naturalWidth) start(); else viewerImage.addEventListener("load", start);

  addEventListener("resize", () => {
    const [width, height] = size();
    view.fill = Math.max(innerWidth / width, innerHeight / height);
    if (view.zoomed) place(); else fit();
  });
  frame.addEventListener("wheel", (event) => {
    event.preventDefault();
    zoom(event.clientX, event.clientY, Math.exp(-event.deltaY / 300));
  }, { passive: false });
  frame.addEventListener("dblclick", (event) => zoom(event.clientX, event.clientY, view.scale > view.fill * 1.5 ? view.fill / view.scale : 2.5));

  // One pointer pans; two pinch (the scale follows the distance between them).
  const pointers = new Map();
  let pinch = null;
  frame.addEventListener("pointerdown", (event) => {
    frame.setPointerCapture(event.pointerId);
    pointers.set(event.pointerId, [event.clientX, event.clientY]);
  });
  frame.addEventListener("pointermove", (event) => {
    const previous = pointers.get(event.pointerId);
    if (!previous) return;
    pointers.set(event.pointerId, [event.clientX, event.clientY]);
    if (pointers.size === 1) {
      view.x += event.clientX - previous[0];
      view.y += event.clientY - previous[1];
      place();
    } else if (pointers.size === 2) {
      const [[ax, ay], [bx, by]] = [...pointers.values()];
      const distance = Math.hypot(ax - bx, ay - by);
      if (pinch) zoom((ax + bx) / 2, (ay + by) / 2, distance / pinch);
      pinch = distance;
    }
  });
  const release = (event) => { pointers.delete(event.pointerId); if (pointers.size < 2) pinch = null; };
  frame.addEventListener("pointerup", release);
  frame.addEventListener("pointercancel", release);
}

// The images grid: the slider (or a pinch) sets the column width, remembered for next time.
const grid = document.querySelector(".image-grid");
if (grid) {
  const slider = document.querySelector(".cell-size input");
  const setCell = (rem) => {
    const value = Math.min(24, Math.max(6, rem));
    grid.style.setProperty("--cell", value + "rem");
    slider.value = String(value);
    try { localStorage.setItem("smashtag.cell", String(value)); } catch (error) { /* private mode: not remembered */ }
  };
  setCell(Number(localStorage.getItem("smashtag.cell") || slider.value));
  slider.addEventListener("input", () => setCell(Number(slider.value)));
  let pinchStart = null;
  grid.addEventListener("touchmove", (event) => {
    if (event.touches.length !== 2) return;
    const [a, b] = event.touches;
    const distance = Math.hypot(a.clientX - b.clientX, a.clientY - b.clientY);
    if (pinchStart) setCell(pinchStart.cell * distance / pinchStart.distance);
    else pinchStart = { distance, cell: Number(slider.value) };
  }, { passive: true });
  grid.addEventListener("touchend", () => { pinchStart = null; }, { passive: true });
}

// Newer and older pages widen the range the Images link shows to their own end (newest or oldest), to the
// millisecond, as the fetched page's own Images link says it; a page without images leaves the range as it is. Only
// that time changes: the rest of the address stays exactly as the server wrote it.
function widenImages(page, end) {
  const mine = document.querySelector("a.images-link");
  const theirs = page.querySelector("a.images-link");
  const parameter = new RegExp("([?&]" + end + "=)([^&]*)");
  const time = theirs && theirs.getAttribute("href").match(parameter);
  if (mine && time) mine.href = mine.getAttribute("href").replace(parameter, "$1" + time[2]);
}

// An image whose proportions the source did not give takes its own once loaded, in place of the placeholder height
// (those loaded before this script ran, from the cache, at once).
function sizeOnLoad(image) {
  if (!(image instanceof HTMLImageElement) || image.hasAttribute("height") || !image.naturalWidth) return;
  image.width = image.naturalWidth;
  image.height = image.naturalHeight;
}
document.addEventListener("load", (event) => sizeOnLoad(event.target), true);
document.querySelectorAll("img:not([height])").forEach((image) => { if (image.complete) sizeOnLoad(image); });

// Media: a loop (a GIF) plays by itself, muted, unless the person asked for reduced motion; a Bluesky video (an HLS
// playlist) plays here only where the browser plays HLS itself (Safari), and otherwise stays a link to the post.
const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");
function startLoops() {
  if (reducedMotion.matches) return;
  document.querySelectorAll("video[data-autoplay]").forEach((video) => {
    const sensitive = video.closest("ul")?.previousElementSibling;
    if (sensitive?.matches("details.sensitive:not([open])")) return;  // not through the blur
    video.play().catch(() => {});
  });
}
startLoops();
document.querySelector("details.sensitive")?.addEventListener("toggle", startLoops);
reducedMotion.addEventListener?.("change", () => {
  if (reducedMotion.matches) document.querySelectorAll("video[data-autoplay]").forEach((video) => video.pause());
});

const playsHLS = document.createElement("video").canPlayType("application/vnd.apple.mpegurl") !== "";
if (playsHLS) {
  document.querySelectorAll("[data-hls]").forEach((link) => {
    const video = document.createElement("video");
    video.controls = true;
    video.playsInline = true;
    video.preload = "none";
    video.src = link.dataset.hls;
    if (link.dataset.poster) video.poster = link.dataset.poster;
    const still = link.querySelector("img");
    if (still?.width) { video.width = still.width; video.height = still.height; }
    video.setAttribute("aria-label", link.dataset.name || link.getAttribute("aria-label") || "Video");
    link.replaceWith(video);
  });
}
