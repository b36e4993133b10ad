// The live view: it asks the JSON endpoints under /api/ again whenever
// the server's event stream says something changed. Every name shown
// comes from the cluster, so the page builds elements and sets their
// text; it never parses data as HTML.
"use strict";

const state = {
  request: null, // {verb, resource, namespace, name}
  pod: null, // {namespace, name}
};

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const c of children) {
    if (c === null || c === undefined) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

function svgEl(tag, attrs, text) {
  const e = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

// shown holds, per panel, what it was last built from. A panel is built
// again only when that changed: the page refreshes on every change event,
// and building replaces the elements under the pointer, so a click whose
// press and release landed on two builds of a row would be lost, and an
// open drop-down would close.
const shown = new Map();

function unchanged(panel, data) {
  const s = JSON.stringify(data);
  if (shown.get(panel) === s) return true;
  shown.set(panel, s);
  return false;
}

async function getJSON(path) {
  const r = await fetch(path, { cache: "no-store" });
  const body = await r.json();
  if (!r.ok) throw new Error(body.message || r.statusText);
  return body;
}

// --- nodes and pods ---

function podRow(p) {
  const key = p.namespace + "/" + p.name;
  const row = el("tr", {
    class: "pod", "data-pod": key, "data-phase": p.phase || "", "data-ip": p.ip || "",
    onclick: () => choosePod(p.namespace, p.name),
  },
  el("td", {}, key),
  el("td", { class: "phase-" + (p.phase || "Pending") }, p.phase || "Pending"),
  el("td", {}, p.ip || "-"));
  if (state.pod && state.pod.namespace === p.namespace && state.pod.name === p.name) row.classList.add("selected");
  return row;
}

function renderCluster(c) {
  if (unchanged("cluster", c)) return;
  document.getElementById("tracing").textContent = c.tracing ? "tracing on" : "tracing off";
  document.getElementById("tracing").className = "badge " + (c.tracing ? "ok" : "bad");
  document.getElementById("tracing-off").hidden = c.tracing;
  const nodes = document.getElementById("nodes");
  nodes.replaceChildren(...c.nodes.map((n) => el("section", { class: "node", "data-node": n.name },
    el("h3", {}, n.name + " ", el("span", { class: n.ready ? "ready" : "notready" }, n.ready ? "Ready" : "NotReady"),
      " · " + n.pods.length + " pods"),
    el("table", {}, el("tbody", {}, ...n.pods.map(podRow))))));
  const pending = document.getElementById("pending");
  pending.replaceChildren();
  if (c.pending.length > 0) {
    pending.append(el("section", { class: "node", "data-node": "" },
      el("h3", {}, "not on a node yet · " + c.pending.length + " pods"),
      el("table", {}, el("tbody", {}, ...c.pending.map(podRow)))));
  }
}

// --- objects by kind ---

function renderObjects(o) {
  if (unchanged("objects", o)) return;
  const t = document.getElementById("objects");
  t.replaceChildren(el("thead", {}, el("tr", {}, el("th", {}, "kind"), el("th", { class: "num" }, "count"), el("th", {}, "names"))),
    el("tbody", {}, ...o.kinds.map((k) => el("tr", { "data-kind": k.kind, "data-count": k.count },
      el("td", {}, k.kind + (k.group ? " (" + k.group + ")" : "")),
      el("td", { class: "num" }, k.count),
      el("td", { class: "names" }, k.names.join(", ") + (k.count > k.names.length ? ", ..." : ""))))));
}

// --- watch cache windows ---

function renderWatchCache(w) {
  if (unchanged("watchcache", w)) return;
  const t = document.getElementById("watchcache");
  const rows = w.resources.filter((r) => r.events > 0 || r.watchers > 0 || r.objects > 0);
  t.replaceChildren(el("thead", {}, el("tr", {},
    el("th", {}, "resource"), el("th", { class: "num" }, "events / capacity"), el("th", {}, ""),
    el("th", { class: "num" }, "window start"), el("th", { class: "num" }, "oldest RV"),
    el("th", { class: "num" }, "newest RV"), el("th", { class: "num" }, "watchers"))),
  el("tbody", {}, ...rows.map((r) => {
    const name = r.resource + (r.group ? "." + r.group : "");
    const pct = r.capacity > 0 ? Math.round((80 * r.events) / r.capacity) : 0;
    return el("tr", {
      class: "wc", "data-resource": name, "data-capacity": r.capacity, "data-oldest": r.oldestRV,
      "data-newest": r.newestRV, "data-watchers": r.watchers,
    },
    el("td", {}, name + " (" + r.version + ")"),
    el("td", { class: "num" }, r.events + " / " + r.capacity),
    el("td", {}, el("span", { class: "fillbox" }, el("span", { class: "fill", style: "width:" + pct + "px" }))),
    el("td", { class: "num" }, r.windowRV),
    el("td", { class: "num" }, r.oldestRV || "-"),
    el("td", { class: "num" }, r.newestRV || "-"),
    el("td", { class: "num" }, r.watchers));
  })));
}

// --- the sequence diagram ---

const LANE_W = 108, TOP = 34, ROW_H = 24, LEFT = 56;

function drawSequence(seq) {
  const svg = document.getElementById("diagram");
  const x = {};
  seq.lanes.forEach((l, i) => { x[l.id] = LEFT + i * LANE_W + LANE_W / 2; });
  const height = TOP + (seq.steps.length + 1) * ROW_H;
  // Room on the right for the labels of the last lanes.
  const width = LEFT + seq.lanes.length * LANE_W + 160;
  svg.setAttribute("width", width);
  svg.setAttribute("height", height);
  svg.replaceChildren();
  const defs = svgEl("defs");
  const marker = svgEl("marker", { id: "head", markerWidth: 8, markerHeight: 8, refX: 7, refY: 4, orient: "auto" });
  marker.append(svgEl("path", { d: "M0,0 L8,4 L0,8 z", fill: "#2f6fdf" }));
  defs.append(marker);
  svg.append(defs);
  for (const l of seq.lanes) {
    svg.append(svgEl("text", { class: "lane-title", x: x[l.id], y: 16, "text-anchor": "middle", "data-lane": l.id }, l.title));
    svg.append(svgEl("line", { class: "lane-line", x1: x[l.id], y1: 24, x2: x[l.id], y2: height }));
  }
  seq.steps.forEach((s, i) => {
    const y = TOP + (i + 1) * ROW_H - 6;
    const g = svgEl("g", {
      class: "step" + (s.error ? " error" : ""), "data-hop": s.hop, "data-lane": s.lane, "data-from": s.from,
      "data-component": s.component,
    });
    const detail = Object.entries(s.attrs).map(([k, v]) => k + "=" + v).join("\n");
    g.append(svgEl("title", {}, s.component + " " + s.hop + " (+" + s.offsetMs.toFixed(2) + "ms, took " +
      s.tookMs.toFixed(2) + "ms)\n" + detail + (s.error ? "\nerror: " + s.error : "")));
    g.append(svgEl("text", { class: "time", x: 4, y: y + 4 }, "+" + s.offsetMs.toFixed(1) + "ms"));
    let label = s.hop;
    if (s.hop === "informer.delta") label = (s.attrs.informer || "") + " informer of " + s.component;
    else if (s.hop === "request") label = (s.attrs.verb || "") + " " + (s.attrs.resource || "") + (s.attrs.code ? " → " + s.attrs.code : "");
    else if (s.lane === "kubelet" || s.lane === "scheduler" || s.lane === "controller") label = s.hop + " (" + s.component + ")";
    if (s.hop.startsWith("admission.") && s.attrs.plugin) label = s.hop + " " + s.attrs.plugin;
    const x1 = x[s.from], x2 = x[s.lane];
    if (x1 === x2 || x1 === undefined) {
      g.append(svgEl("rect", { class: "box", x: x2 - 5, y: y - 5, width: 10, height: 10, rx: 2 }));
      g.append(svgEl("text", { class: "label", x: x2 + 9, y: y + 4 }, label));
    } else {
      const dir = x2 > x1 ? 1 : -1;
      g.append(svgEl("line", { class: "arrow", x1, y1: y, x2: x2 - dir * 2, y2: y, "marker-end": "url(#head)" }));
      const tx = dir > 0 ? x1 + 6 : x2 + 8;
      g.append(svgEl("text", { class: "label", x: tx, y: y - 4 }, label));
    }
    svg.append(g);
  });
}

async function refreshSequence() {
  const title = document.getElementById("sequence-title");
  if (!state.request) return;
  const r = state.request;
  const q = new URLSearchParams({ verb: r.verb, resource: r.resource, namespace: r.namespace || "", name: r.name });
  const seq = await getJSON("/api/sequence?" + q);
  if (unchanged("sequence", { r, seq })) return;
  const what = r.verb + " " + r.resource + " " + (r.namespace ? r.namespace + "/" : "") + r.name;
  title.textContent = seq.found ? what + ": " + seq.steps.length + " hops, in causal order" : (seq.message || what);
  title.dataset.found = seq.found;
  drawSequence(seq);
}

async function refreshRequests() {
  const picker = document.getElementById("request-picker");
  const body = await getJSON("/api/requests");
  if (unchanged("requests", body)) return;
  const chosen = picker.value;
  const options = [el("option", { value: "" }, body.tracing ? "choose a request" : "tracing is off")];
  for (const r of body.requests) {
    const value = JSON.stringify(r);
    options.push(el("option", { value }, r.verb + " " + r.resource + " " + (r.namespace ? r.namespace + "/" : "") + r.name));
  }
  picker.replaceChildren(...options);
  picker.value = chosen;
}

function chooseRequest(r) {
  state.request = r;
  document.getElementById("req-verb").value = r.verb;
  document.getElementById("req-resource").value = r.resource;
  document.getElementById("req-namespace").value = r.namespace || "";
  document.getElementById("req-name").value = r.name;
  refreshSequence().catch(showError);
}

// --- the scheduling decision ---

async function refreshScheduling() {
  if (!state.pod) return;
  const q = new URLSearchParams({ namespace: state.pod.namespace, name: state.pod.name });
  const d = await getJSON("/api/scheduling?" + q);
  if (unchanged("scheduling", { pod: state.pod, d })) return;
  const title = document.getElementById("scheduling-title");
  const t = document.getElementById("scheduling");
  if (!d.found) {
    title.textContent = d.message;
    t.replaceChildren();
    return;
  }
  title.textContent = "pod " + d.pod + (d.node ? " → " + d.node : " fits no node") +
    (d.bound ? " (bound)" : "") + (d.error ? ": " + d.error : "");
  title.dataset.node = d.node;
  t.replaceChildren(el("thead", {}, el("tr", {}, el("th", {}, "node"), el("th", {}, "filter"),
    ...d.plugins.map((p) => el("th", { class: "num", "data-plugin": p }, p)), el("th", { class: "num" }, "total"))),
  el("tbody", {}, ...d.nodes.map((n) => el("tr", {
    class: "sched-node" + (n.chosen ? " chosen" : ""), "data-node": n.name, "data-filter": n.filter, "data-chosen": n.chosen,
  },
  el("td", {}, n.name + (n.chosen ? " ✓" : "")),
  el("td", {}, n.filter),
  ...d.plugins.map((p) => el("td", { class: "num" }, n.scores[p] === undefined ? "-" : n.scores[p])),
  el("td", { class: "num" }, n.total === undefined ? "-" : n.total)))));
}

function choosePod(namespace, name) {
  state.pod = { namespace, name };
  chooseRequest({ verb: "create", resource: "pods", namespace, name });
  for (const row of document.querySelectorAll("tr.pod")) {
    row.classList.toggle("selected", row.dataset.pod === namespace + "/" + name);
  }
  refreshScheduling().catch(showError);
}

// --- refreshing ---

function showError(err) {
  const c = document.getElementById("connection");
  c.textContent = "error: " + err.message;
  c.className = "badge bad";
}

let refreshing = false, again = false;

async function refresh() {
  if (refreshing) { again = true; return; }
  refreshing = true;
  try {
    const [c, o] = await Promise.all([getJSON("/api/cluster"), getJSON("/api/objects")]);
    renderCluster(c);
    renderObjects(o);
    await Promise.all([refreshRequests(), refreshSequence(), refreshScheduling()]);
  } catch (err) {
    showError(err);
  } finally {
    refreshing = false;
    if (again) { again = false; refresh(); }
  }
}

// The watch cache panel asks the API server, which records spans of its
// own: it refreshes on a timer of its own rather than on every change,
// or its own requests would keep the page refreshing.
async function refreshWatchCache() {
  try {
    renderWatchCache(await getJSON("/api/watchcache"));
  } catch (err) {
    showError(err);
  }
}

function connect() {
  const c = document.getElementById("connection");
  const es = new EventSource("/api/events");
  es.addEventListener("change", () => {
    c.textContent = "live";
    c.className = "badge ok";
    refresh();
  });
  es.onerror = () => {
    c.textContent = "reconnecting";
    c.className = "badge bad";
  };
}

document.getElementById("request-picker").addEventListener("change", (e) => {
  if (e.target.value) chooseRequest(JSON.parse(e.target.value));
});
document.getElementById("request-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const v = (id) => document.getElementById(id).value.trim();
  if (!v("req-resource") || !v("req-name")) return;
  chooseRequest({ verb: v("req-verb"), resource: v("req-resource"), namespace: v("req-namespace"), name: v("req-name") });
});

connect();
refreshWatchCache();
setInterval(refreshWatchCache, 2000);
