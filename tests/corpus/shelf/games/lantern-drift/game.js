(function () {
  "use strict";

  var canvas = document.getElementById("river");
  var ctx = canvas.getContext("2d");
  var score = document.getElementById("score");
  var lantern = { x: 240, y: 160 };
  var target = null;
  var spark = { x: 100, y: 80 };
  var sparks = 0;
  var moves = 0;
  var KEYS = {
    ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1],
    a: [-1, 0], d: [1, 0], w: [0, -1], s: [0, 1]
  };

  function placeSpark() {
    spark.x = 30 + ((spark.x * 7 + 97) % 420);
    spark.y = 30 + ((spark.y * 5 + 61) % 260);
  }

  function moved() {
    moves += 1;
    if (Math.hypot(lantern.x - spark.x, lantern.y - spark.y) < 20) {
      sparks += 1;
      placeSpark();
    }
    score.textContent = "Sparks " + sparks + " \u00b7 Moves " + moves;
  }

  document.addEventListener("keydown", function (e) {
    var d = KEYS[e.key] || KEYS[e.key.toLowerCase()];
    if (!d) return;
    e.preventDefault();
    lantern.x = Math.max(10, Math.min(470, lantern.x + d[0] * 16));
    lantern.y = Math.max(10, Math.min(310, lantern.y + d[1] * 16));
    target = null;
    moved();
  });

  // Anywhere on the page counts: a tap beside the river steers toward that side.
  document.addEventListener("pointerdown", function (e) {
    var box = canvas.getBoundingClientRect();
    target = {
      x: Math.max(10, Math.min(470, ((e.clientX - box.left) / box.width) * canvas.width)),
      y: Math.max(10, Math.min(310, ((e.clientY - box.top) / box.height) * canvas.height))
    };
    moved();
  });

  function draw(t) {
    if (target) {
      lantern.x += (target.x - lantern.x) * 0.15;
      lantern.y += (target.y - lantern.y) * 0.15;
      if (Math.hypot(target.x - lantern.x, target.y - lantern.y) < 1) target = null;
    }
    ctx.fillStyle = "#10263b";
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.fillStyle = "rgba(246, 213, 142, " + (0.5 + 0.5 * Math.sin(t / 300)) + ")";
    ctx.beginPath();
    ctx.arc(spark.x, spark.y, 6, 0, Math.PI * 2);
    ctx.fill();
    ctx.fillStyle = "#e4572e";
    ctx.fillRect(lantern.x - 10, lantern.y - 12, 20, 24);
    window.requestAnimationFrame(draw);
  }
  window.requestAnimationFrame(draw);
})();
