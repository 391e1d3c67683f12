(function () {
  "use strict";

  var FAULTS = ["Scale Buildup", "Feed Pump Seizure"];
  var AMBIENT = 18;
  var VACUUM = { off: 1.0, low: 0.6, high: 0.3 };
  var s;

  function cold() {
    return {
      steam: 0, pump: false, vacuum: "off", bleed: false,
      pressure: 0.4, temperature: 12, level: 60, salinity: 3.5,
      scale: 0, motor: AMBIENT, tripped: false,
      faults: [], alarms: [], alarmTime: { "HIGH SCALE": 0, "PUMP OVERHEAT": 0 }
    };
  }

  function has(fault) { return s.faults.indexOf(fault) >= 0; }

  // One small explicit step; tick() splits any interval into these so the
  // result does not depend on the frame rate.
  function step(h) {
    var feeding = s.pump && !s.tripped && !has("Feed Pump Seizure");
    s.pressure += (VACUUM[s.vacuum] - s.pressure) * 0.1 * h;
    var boiling = 100 * Math.pow(s.pressure, 0.25);
    var heat = (s.steam / 100) * 3 * (1 - s.scale / 100);
    s.temperature += (heat - (s.temperature - AMBIENT) * 0.02) * h;
    var evaporation = 0;
    if (s.temperature > boiling) {
      evaporation = (s.temperature - boiling) * 0.5;
      s.temperature = boiling;
    }
    var inflow = feeding ? 1.2 : 0;
    var outflow = evaporation * 0.3 + (s.bleed ? 0.8 : 0) + Math.max(0, s.level - 50) * 0.05;
    var salt = s.salinity * s.level + (inflow * 3.5 - (s.bleed ? 0.8 * s.salinity : 0)) * h;
    s.level = Math.min(100, Math.max(1, s.level + (inflow - outflow) * h));
    s.salinity = Math.min(30, Math.max(0, salt / s.level));
    if (has("Scale Buildup")) s.scale += 4 * h;
    else if (s.salinity > 20) s.scale += 0.05 * h;
    s.scale = Math.min(100, s.scale);
    var motorHeat = (feeding ? 0.8 : 0) + (has("Feed Pump Seizure") ? 5 : 0);
    s.motor += (motorHeat - (s.motor - AMBIENT) * 0.05) * h;

    var alarms = [];
    if (s.scale > 30) alarms.push("HIGH SCALE");
    if (s.motor > 70) alarms.push("PUMP OVERHEAT");
    Object.keys(s.alarmTime).forEach(function (name) {
      s.alarmTime[name] = alarms.indexOf(name) >= 0 ? s.alarmTime[name] + h : 0;
    });
    // An ignored alarm trips the plant: steam shut, pump locked out.
    if (s.alarmTime["HIGH SCALE"] > 20 || s.alarmTime["PUMP OVERHEAT"] > 15) {
      s.tripped = true;
      s.steam = 0;
    }
    if (s.tripped) alarms.push("TRIP");
    s.alarms = alarms;
  }

  function tick(seconds) {
    var total = Math.max(0, Math.min(Number(seconds) || 0, 3600));
    var n = Math.ceil(total / 0.25);
    for (var i = 0; i < n; i++) step(total / n);
    render();
  }

  function state() {
    return {
      steam: s.steam, pump: s.pump, vacuum: s.vacuum, bleed: s.bleed,
      pressure: s.pressure, temperature: s.temperature, level: s.level,
      salinity: s.salinity, scale: s.scale, motor: s.motor, tripped: s.tripped,
      faults: s.faults.slice(), alarms: s.alarms.slice()
    };
  }

  function inject(fault) {
    if (FAULTS.indexOf(fault) < 0) throw new Error("unknown fault: " + fault);
    if (!has(fault)) s.faults.push(fault);
  }

  function reset() {
    s = cold();
    syncControls();
    render();
  }

  function $(selector) { return document.querySelector(selector); }

  function syncControls() {
    if (!document.body) return;
    $('[data-control="Steam Valve"]').value = String(s.steam);
    $('[data-control="Vacuum Selector"]').value = s.vacuum;
    $('[data-control="Feed Pump"]').setAttribute("aria-pressed", String(s.pump));
    $('[data-control="Bleed Valve"]').checked = s.bleed;
  }

  var SCALES = { pressure: 1.2, temperature: 110, level: 100, salinity: 30 };
  var UNITS = { pressure: " bar", temperature: " \u00b0C", level: " %", salinity: " %" };

  function render() {
    if (!document.body) return;
    Object.keys(SCALES).forEach(function (key) {
      var value = s[key];
      $('[data-bar="' + key + '"]').style.width = Math.min(100, (value / SCALES[key]) * 100) + "%";
      $('[data-read="' + key + '"]').textContent = value.toFixed(key === "pressure" ? 2 : 1) + UNITS[key];
    });
    document.querySelectorAll("[data-lamp]").forEach(function (lamp) {
      lamp.classList.toggle("on", s.alarms.indexOf(lamp.getAttribute("data-lamp")) >= 0);
    });
    if (s.tripped) $('[data-control="Steam Valve"]').value = "0";
  }

  function wire() {
    $('[data-control="Steam Valve"]').addEventListener("input", function (e) {
      if (!s.tripped) s.steam = Number(e.target.value);
    });
    $('[data-control="Vacuum Selector"]').addEventListener("change", function (e) {
      s.vacuum = e.target.value;
    });
    $('[data-control="Feed Pump"]').addEventListener("click", function () {
      if (!s.tripped) s.pump = !s.pump;
      syncControls();
    });
    $('[data-control="Bleed Valve"]').addEventListener("change", function (e) {
      s.bleed = e.target.checked;
    });
    document.querySelectorAll("[data-fault]").forEach(function (button) {
      button.addEventListener("click", function () { inject(button.getAttribute("data-fault")); });
    });
    $('[data-action="reset"]').addEventListener("click", reset);
    var dialog = $("dialog[data-manual]");
    $('[data-action="manual"]').addEventListener("click", function () { dialog.showModal(); });
    $('[data-action="close-manual"]').addEventListener("click", function () { dialog.close(); });
  }

  s = cold();
  window.machine = {
    name: "Saltmarsh No. 3 Brine Evaporator",
    faults: FAULTS.slice(),
    state: state,
    tick: tick,
    inject: inject,
    reset: reset
  };

  wire();
  render();
  var last = null;
  function frame(now) {
    if (last !== null) tick(Math.min(0.1, (now - last) / 1000));
    last = now;
    window.requestAnimationFrame(frame);
  }
  window.requestAnimationFrame(frame);
})();
