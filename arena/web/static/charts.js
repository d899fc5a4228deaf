// Charts of the report, drawn with the vendored uPlot (static/vendor/uPlot.iife.min.js,
// v1.6.32, MIT, see uPlot.LICENSE). Each <figure class="chart" data-kind="..."> carries its data
// in a <script type="application/json"> child; nothing from the data is ever parsed as HTML
// (uPlot writes labels with textContent).
(function () {
  "use strict";
  var COLORS = ["#2456b3", "#c0392b", "#1e7a3c", "#8e44ad", "#d68910", "#16a085",
    "#7f8c8d", "#c2185b", "#5d4037", "#0097a7"];

  function color(i, alpha) {
    var hex = COLORS[i % COLORS.length];
    if (alpha === undefined) return hex;
    var n = parseInt(hex.slice(1), 16);
    return "rgba(" + (n >> 16) + "," + ((n >> 8) & 255) + "," + (n & 255) + "," + alpha + ")";
  }

  function width(figure) {
    return Math.max(320, Math.min(1100, figure.parentElement.clientWidth || 800));
  }

  function axes(data) {
    return [
      // whole numbers of games or pairs: no tick at 1.5 games
      { label: data.xlabel || "", incrs: data.integers ? [1, 2, 5, 10, 20, 50, 100, 200, 500,
        1000, 2000, 5000, 10000, 20000, 50000, 100000, 200000, 500000] : undefined },
      { label: data.ylabel || "" }
    ];
  }

  // Each bot's mu as a line, and mu - 3 sigma .. mu + 3 sigma as a shaded band.
  function rating(figure, data) {
    var columns = [data.x], series = [{ label: data.xlabel }], bands = [];
    data.series.forEach(function (bot, i) {
      var at = columns.length;
      columns.push(bot.mu, bot.high, bot.low);
      series.push({ label: bot.label, stroke: color(i), width: 2, spanGaps: true },
        { label: bot.label + " +3σ", stroke: color(i, 0.25), width: 1, spanGaps: true,
          points: { show: false } },
        { label: bot.label + " −3σ", stroke: color(i, 0.25), width: 1, spanGaps: true,
          points: { show: false } });
      bands.push({ series: [at + 1, at + 2], fill: color(i, 0.10) });
    });
    return { columns: columns, series: series, bands: bands, height: 320 };
  }

  // Counts per bin, as bars side by side.
  function histogram(figure, data) {
    var bars = uPlot.paths.bars({ size: [0.8 / Math.max(1, data.series.length), 60] });
    var columns = [data.x], series = [{ label: data.xlabel }];
    data.series.forEach(function (s, i) {
      columns.push(s.values);
      series.push({ label: s.label, stroke: color(i), fill: color(i, 0.5), paths: bars,
        points: { show: false } });
    });
    return { columns: columns, series: series, bands: [], height: 220 };
  }

  // The sequential test's log-likelihood ratio after each pair, between its two bounds.
  function path(figure, data) {
    var columns = [data.x, data.llr, data.lower, data.upper];
    var series = [{ label: data.xlabel },
      { label: "LLR", stroke: color(0), width: 2 },
      { label: "PASS bound", stroke: color(2), dash: [6, 4] },
      { label: "FAIL bound", stroke: color(1), dash: [6, 4] }];
    return { columns: columns, series: series, bands: [], height: 300 };
  }

  var KINDS = { rating: rating, histogram: histogram, path: path };

  document.querySelectorAll("figure.chart").forEach(function (figure) {
    var source = figure.querySelector("script[type='application/json']");
    var draw = KINDS[figure.dataset.kind];
    if (!source || !draw) return;
    var data = JSON.parse(source.textContent);
    if (!data.x || data.x.length === 0) {
      var empty = document.createElement("p");
      empty.className = "empty";
      empty.textContent = "Nothing to draw yet.";
      figure.appendChild(empty);
      return;
    }
    var made = draw(figure, data);
    new uPlot({
      width: width(figure),
      height: made.height,
      series: made.series,
      bands: made.bands,
      axes: axes(data),
      scales: { x: { time: false } },
      legend: { live: false }
    }, made.columns, figure);
  });
})();
