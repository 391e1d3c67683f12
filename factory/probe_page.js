// The in-page half of `factory probe`: one function evaluated inside the
// product's page as `(request) => result`, where request is {step, args}.
//
// It reads the page and calls window.machine (and adds listeners: focus and
// keydown for the keyboard finding, resize for rule 7); it never waits, never
// schedules anything, and never throws: every failure comes back as data so
// the Python half can word it as one line. Each step runs to completion in a
// single evaluate, so the page's own animation loop cannot interleave.
(request) => {
  const fold = (text) => String(text).toLowerCase().split(/\s+/).filter(Boolean).join(" ");
  const describe = (error) => {
    try {
      const text = error && error.message !== undefined ? `${error.name || "Error"}: ${error.message}` : String(error);
      return text.split("\n")[0].slice(0, 200);
    } catch (_) {
      return "an unprintable error";
    }
  };

  // A call into the product; a throw becomes a tagged failure the caller stops on.
  class Failed {
    constructor(text) { this.text = text; }
  }
  const attempt = (label, fn) => {
    try {
      return fn();
    } catch (error) {
      throw new Failed(`${label} threw ${describe(error)}`);
    }
  };
  const quote = (text) => JSON.stringify(String(text));

  const m = () => window.machine;
  const reset = () => attempt("window.machine.reset()", () => m().reset());
  const tick = (s) => attempt(`window.machine.tick(${s})`, () => m().tick(s));
  const state = () => attempt("window.machine.state()", () => m().state());
  const alarmsOf = (s) => {
    if (!s || !Array.isArray(s.alarms)) throw new Failed("window.machine.state().alarms is not an array");
    return s.alarms;
  };

  // Every value in a state, by path: numbers for the finite rule and the quantities
  // finding, all of them for the keyboard's before/after. The state is the product's to
  // shape, so the walk is bounded however it is shaped: each object is walked once (a
  // cycle or a shared branch is not walked again), a DOM node or a window is a page and
  // not the machine's state, and at most WALK_BUDGET values are read in all.
  const WALK_DEPTH = 8;
  const WALK_KEYS = 1000;
  const WALK_BUDGET = 10000;
  const isPage = (value) => {
    try {
      return value === window || value.window === value || (typeof Node === "function" && value instanceof Node);
    } catch (_) {
      return true; // a hostile getter or proxy: not walked
    }
  };
  const leaves = (root) => {
    const out = [];
    const seen = new WeakSet();
    let budget = WALK_BUDGET;
    const walk = (value, path, depth) => {
      if (budget-- <= 0) return;
      if (typeof value === "number" || typeof value === "string" || typeof value === "boolean") out.push([path, value]);
      if (!value || typeof value !== "object" || depth >= WALK_DEPTH || seen.has(value) || isPage(value)) return;
      seen.add(value);
      let keys;
      try {
        keys = Array.isArray(value) ? value.keys() : Object.keys(value);
      } catch (_) {
        return;
      }
      let n = 0;
      for (const key of keys) {
        if (n++ >= WALK_KEYS || budget <= 0) break;
        let child;
        try {
          child = value[key];
        } catch (_) {
          continue;
        }
        walk(child, path ? `${path}.${key}` : String(key), depth + 1);
      }
    };
    walk(root, "", 0);
    return out;
  };
  const numbers = (value) => leaves(value).filter(([, leaf]) => typeof leaf === "number");
  const ranges = {};
  const sample = (s) => {
    for (const [path, value] of numbers(s)) {
      if (!Number.isFinite(value)) continue;
      const range = ranges[path];
      if (!range) ranges[path] = [value, value];
      else {
        range[0] = Math.min(range[0], value);
        range[1] = Math.max(range[1], value);
      }
    }
  };
  // The active alarms, from one state() read; `sampled` also records its numbers for the
  // quantities finding (never under --parity: the reference reads only the alarms here).
  const alarms = (sampled) => {
    const s = state();
    if (sampled) sample(s);
    return alarmsOf(s);
  };

  const visible = (el) => {
    const box = el.getBoundingClientRect();
    if (box.width <= 0 || box.height <= 0) return false;
    if (el.checkVisibility && !el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) return false;
    return true;
  };
  // Rules 3 and 7 judge visibility as the reference does: the element's own
  // box, its computed visibility and display, and nothing else (an opacity-0
  // input laid over a drawn knob counts as there, a display: contents wrapper
  // does not), so the verdict is the reference's on the same product.
  const shown = (el) => {
    const box = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    return box.width > 0 && box.height > 0 && style.visibility !== "hidden" && style.display !== "none";
  };
  const onScreen = (el) => {
    if (!shown(el)) return false;
    const box = el.getBoundingClientRect();
    return box.right > 0 && box.bottom > 0 && box.left < innerWidth && box.top < innerHeight;
  };
  const byData = (attribute, name) =>
    [...document.querySelectorAll(`[${attribute}]`)].filter((el) => fold(el.getAttribute(attribute)) === fold(name));

  const steps = {
    // Rule 2: the fixed API and its fault list against the catalogue's.
    api({ faults }) {
      const problems = [];
      let machine;
      try {
        machine = window.machine;
      } catch (error) {
        return { problems: [`reading window.machine threw ${describe(error)}`], usable: false };
      }
      if (machine === undefined || machine === null || typeof machine !== "object") {
        return { problems: ["window.machine is missing (assign it inside machine.js's IIFE)"], usable: false };
      }
      try {
        if (typeof machine.name !== "string" || !machine.name.trim()) problems.push("window.machine.name is not a non-empty string");
        const own = machine.faults;
        if (!Array.isArray(own) || own.length === 0) problems.push("window.machine.faults is not a non-empty array");
        for (const fn of ["state", "tick", "inject", "reset"]) {
          if (typeof machine[fn] !== "function") problems.push(`window.machine.${fn} is not a function`);
        }
        if (Array.isArray(own)) {
          // Compared folded, as the reference compares them: "Gyro Drift" is "gyro drift".
          const folded = (list) => list.map(fold);
          const extra = own.filter((f) => !folded(faults).includes(fold(f)));
          const missing = faults.filter((f) => !folded(own).includes(fold(f)));
          if (extra.length) problems.push(`window.machine.faults has ${extra.map(quote).join(", ")} that the catalogue entry does not list`);
          if (missing.length) problems.push(`the catalogue lists fault ${missing.map(quote).join(", ")} that window.machine.faults does not`);
        }
      } catch (error) {
        problems.push(error instanceof Failed ? error.text : describe(error));
        return { problems, usable: false };
      }
      // Drivable when the four functions are there, even if names or fault lists are off.
      const usable = ["state", "tick", "inject", "reset"].every((fn) => typeof machine[fn] === "function");
      return { problems, usable };
    },

    // Rule 3: each catalogue control is an element on screen at load.
    // The first element carrying the name is the one judged, as in the reference.
    controls({ names }) {
      const missing = [];
      const hidden = [];
      for (const name of names) {
        const found = byData("data-control", name);
        if (!found.length) missing.push(name);
        else if (!onScreen(found[0])) hidden.push(name);
      }
      return { missing, hidden };
    },

    // Rule 4: the manual's parts, before anything is clicked.
    manualParts() {
      const problems = [];
      const dialog = document.querySelector("dialog[data-manual]");
      if (!dialog) problems.push("no <dialog data-manual> on the panel");
      else {
        const frame = [...dialog.querySelectorAll("iframe")].some((f) => (f.getAttribute("src") || "").endsWith("manual.html"));
        if (!frame) problems.push('the manual dialog holds no <iframe src="manual.html">');
        if (dialog.open) problems.push("the manual dialog is open on load (it must start closed)");
      }
      if (!document.querySelector('[data-action="manual"]')) problems.push('no control with data-action="manual" opens the manual');
      if (!document.querySelector('[data-action="close-manual"]')) problems.push('no control with data-action="close-manual" closes the manual');
      return { problems };
    },
    manualOpen() {
      const dialog = document.querySelector("dialog[data-manual]");
      return Boolean(dialog && dialog.open);
    },

    // Rule 7: sideways overflow, and the opener on a phone.
    // Against the window's width, with a pixel of rounding forgiven, as the reference measures.
    overflow() {
      return { wide: document.documentElement.scrollWidth, width: innerWidth };
    },
    // Rule 7: the window's resize event arrives with a real frame, not on the page's clock;
    // count it, so the probe lets the page's handlers run before measuring.
    resizeWatch() {
      window.__factoryProbeResized = 0;
      if (!window.__factoryProbeResizeHeard) {
        window.__factoryProbeResizeHeard = true;
        window.addEventListener("resize", () => { window.__factoryProbeResized += 1; }, true);
      }
      return true;
    },
    resized() {
      return window.__factoryProbeResized > 0;
    },
    openerVisible() {
      const opener = document.querySelector('[data-action="manual"]');
      return Boolean(opener && shown(opener));
    },

    // Rule 5: alarm-free after reset; each fault alarms within 60 s; reset clears it.
    alarms({ faults, sampled }) {
      const out = { problems: [], seconds: {}, cleared: {}, ranges };
      // The product's own spelling is what its inject() knows; the reference injects it too.
      const own = Array.isArray(m().faults) ? m().faults.map(String) : [];
      faults = faults.map((f) => own.find((o) => fold(o) === fold(f)) ?? f);
      try {
        reset();
        tick(5);
        const early = alarms(sampled);
        if (early.length) out.problems.push(`after reset(); tick(5) alarms are active: ${early.map(quote).join(", ")}`);
        for (const fault of faults) {
          reset();
          tick(5);
          attempt(`window.machine.inject(${quote(fault)})`, () => m().inject(fault));
          // As the reference does: tick first, then look; an alarm that one tick clears is no alarm.
          let seconds = null;
          for (let s = 1; seconds === null && s <= 60; s++) {
            tick(1);
            if (alarms(sampled).length) seconds = s;
          }
          out.seconds[fault] = seconds;
          reset();
          tick(5);
          const left = alarms(false);
          out.cleared[fault] = left.length === 0;
          if (seconds === null) out.problems.push(`fault ${quote(fault)} raised no alarm within 60 x tick(1) after inject()`);
          if (left.length) out.problems.push(`after fault ${quote(fault)}, reset(); tick(5) leaves alarms active: ${left.map(quote).join(", ")}`);
        }
      } catch (error) {
        out.problems.push(error instanceof Failed ? error.text : describe(error));
      }
      return out;
    },

    // Rule 6: 600 simulated seconds from reset, every number finite. Only the end is
    // judged, as the reference judges it: a value that passes through Infinity and
    // recovers is no failure; `sampled` records the way there for the quantities finding.
    run({ seconds, sampled }) {
      const out = { problems: [], ranges };
      try {
        reset();
        if (sampled) sample(state());
        for (let s = 1; s <= seconds; s++) {
          tick(1);
          if (sampled) sample(state());
        }
        const bad = numbers(state()).filter(([, value]) => !Number.isFinite(value));
        if (bad.length) {
          out.problems.push(`state() holds a non-finite number after ${seconds} x tick(1): ${bad.slice(0, 3).map(([p, v]) => `${p} = ${v}`).join(", ")}`);
        }
      } catch (error) {
        out.problems.push(error instanceof Failed ? error.text : describe(error));
      }
      return out;
    },

    // The keyboard finding: record where Tab lands, then operate each control.
    focusStart() {
      window.__factoryProbeFocus = [];
      document.addEventListener("focusin", (e) => window.__factoryProbeFocus.push(e.target), true);
      // A key the page's own handler consumed (preventDefault) was handled, even when its
      // effect is hidden state that shows only later (a valve's setpoint before the flow).
      window.__factoryProbeConsumed = false;
      window.addEventListener("keydown", (e) => { window.__factoryProbeConsumed = e.defaultPrevented; });
      if (document.activeElement && document.activeElement !== document.body) document.activeElement.blur();
      const focusable = 'a[href], button, input, select, textarea, summary, iframe, [tabindex], [contenteditable="true"]';
      return [...document.querySelectorAll(focusable)].filter((el) => el.tabIndex >= 0 && !el.disabled && visible(el)).length;
    },
    focusReached({ names }) {
      const reached = {};
      (window.__factoryProbeFocus || []).forEach((el, index) => {
        const control = el.closest && el.closest("[data-control]");
        if (!control) return;
        const name = names.find((n) => fold(n) === fold(control.getAttribute("data-control")));
        // The platform operates native controls from the keyboard (Space, Enter, arrows)
        // whatever they then do, so only a custom widget has to show it handled a key.
        const native = el.matches("button, input, select, textarea, summary, a[href]") && !el.disabled;
        if (name && !(name in reached)) reached[name] = { index, native, kind: el.tagName === "INPUT" ? el.type : el.tagName.toLowerCase() };
      });
      return reached;
    },
    focusOn({ index }) {
      window.__factoryProbeConsumed = false;
      window.__factoryProbeFocus[index].focus();
      return steps.fingerprint({ index });
    },
    consumed() {
      return Boolean(window.__factoryProbeConsumed);
    },
    fingerprint({ index }) {
      const el = window.__factoryProbeFocus[index];
      const control = el.closest("[data-control]") || el;
      const parts = [control, ...control.querySelectorAll("*")].map((e) =>
        [e.value, e.checked, e.className, e.getAttribute("aria-pressed"), e.getAttribute("aria-checked"),
          e.getAttribute("aria-valuenow"), e.textContent].join("|"));
      let snapshot;
      try {
        snapshot = JSON.stringify(leaves(state()));
      } catch (_) {
        snapshot = "";
      }
      return parts.join("\n") + "\n" + snapshot;
    },

    // The fault-controls finding: a visible [data-fault] control per fault.
    faultControl({ fault }) {
      try {
        reset();
        tick(5);
      } catch (error) {
        return { error: error instanceof Failed ? error.text : describe(error) };
      }
      const all = [...document.querySelectorAll("[data-fault]")];
      const index = all.findIndex((el) => fold(el.getAttribute("data-fault")) === fold(fault) && visible(el));
      if (index >= 0) return { index };
      return { error: byData("data-fault", fault).length ? `the data-fault=${quote(fault)} control is not visible` : `no control carries data-fault=${quote(fault)}` };
    },
    faultAlarm() {
      try {
        let seconds = null;
        for (let s = 1; seconds === null && s <= 60; s++) {
          tick(1);
          if (alarms(true).length) seconds = s;
        }
        reset();
        return { seconds, ranges };
      } catch (error) {
        return { error: error instanceof Failed ? error.text : describe(error) };
      }
    },
    settle({ seconds }) {
      try {
        for (let s = 0; s < seconds; s++) {
          tick(1);
          sample(state());
        }
        return { ranges };
      } catch (error) {
        return { error: error instanceof Failed ? error.text : describe(error) };
      }
    },
  };
  return steps[request.step](request.args || {});
}
