/*
 * trackctl map page: draws the inlined data (#map-data) with Leaflet. Runs in the browser;
 * bundled as text into every page by src/io/pages/map/page.ts. Text from the service reaches the
 * page through textContent only, never as markup.
 */
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('map-data').textContent);
  var map = L.map('map', { zoomControl: true, zoomSnap: 0.25, worldCopyJump: false });
  var bounds = L.latLngBounds([]);
  var drawn = { tracks: 0, points: 0, events: 0, trips: 0, stops: 0, units: 0 };

  // Base tiles when online; offline the data still draws over the plain background.
  var tiles = L.tileLayer('https://tile.openstreetmap.org/{z}/{x}/{y}.png', {
    maxZoom: 19,
    attribution: '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors',
  }).addTo(map);
  var notice = null;
  tiles.on('tileerror', function () {
    if (notice) return;
    notice = L.control({ position: 'topright' });
    notice.onAdd = function () {
      var div = L.DomUtil.create('div', 'trk-notice');
      div.textContent = 'Base map unavailable (offline?): the data is drawn over a plain background.';
      return div;
    };
    notice.addTo(map);
  });
  L.control.scale({ position: 'bottomleft' }).addTo(map);

  /** The clock in the zone the page was made for (trackctl's zone rule), e.g. 2026-11-21 10:04:05; the subtitle names the zone. */
  var clock = new Intl.DateTimeFormat('en-US', {
    timeZone: data.zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
  });
  function formatTime(seconds) {
    if (seconds === null || seconds === undefined || !isFinite(seconds) || seconds <= 0) return '—';
    var p = {};
    clock.formatToParts(new Date(seconds * 1000)).forEach(function (part) { p[part.type] = part.value; });
    return p.year + '-' + p.month + '-' + p.day + ' ' + p.hour + ':' + p.minute + ':' + p.second;
  }
  function formatDuration(seconds) {
    if (seconds === null || seconds === undefined || !isFinite(seconds)) return '—';
    var s = Math.round(seconds);
    var h = Math.floor(s / 3600);
    var m = Math.floor((s % 3600) / 60);
    if (h > 0) return h + ' h ' + m + ' min';
    if (m > 0) return m + ' min';
    return s + ' s';
  }
  function formatNumber(n, digits) {
    return n === null || n === undefined || !isFinite(n) ? '—' : String(Math.round(n * Math.pow(10, digits)) / Math.pow(10, digits));
  }
  /** A popup: a heading and rows of label and value, all as text. */
  function popup(heading, rows) {
    var div = document.createElement('div');
    div.className = 'trk-popup';
    var h = document.createElement('strong');
    h.textContent = heading;
    div.appendChild(h);
    var table = document.createElement('table');
    rows.forEach(function (row) {
      if (row[1] === null || row[1] === undefined || row[1] === '') return;
      var tr = document.createElement('tr');
      var th = document.createElement('th');
      th.textContent = row[0];
      var td = document.createElement('td');
      td.textContent = String(row[1]);
      tr.appendChild(th);
      tr.appendChild(td);
      table.appendChild(tr);
    });
    div.appendChild(table);
    return div;
  }
  /** A colour of the page's own palette (#rrggbb), never text from the service. */
  function safeColor(c) {
    return typeof c === 'string' && /^#[0-9a-fA-F]{6}$/.test(c) ? c : null;
  }
  /**
   * An event's marker. The k-th event at a place another already marks (an sos and a crash of
   * one stop) is drawn beside it, on a small ring around the place, so each can be clicked; its
   * popup still points at the place.
   */
  function eventIcon(kind, color, k) {
    var label = kind === 'sos' ? 'SOS' : kind === 'crash' ? '!' : 'P';
    var fill = safeColor(color);
    var size = kind === 'sos' ? 26 : 20;
    var dx = 0, dy = 0;
    if (k > 0) {
      var angle = (k - 1) * Math.PI / 3 - Math.PI / 2;
      dx = Math.round(Math.cos(angle) * 24 * Math.ceil(k / 6));
      dy = Math.round(Math.sin(angle) * 24 * Math.ceil(k / 6));
    }
    // Leaflet positions the icon element with a transform: the shape (rotated for crash) is an inner element.
    return L.divIcon({
      className: 'trk-marker trk-marker-' + kind,
      html: '<div class="trk-event trk-' + kind + '"' + (fill ? ' style="background:' + fill + '"' : '') + '><span>' + label + '</span></div>',
      iconSize: [size, size],
      iconAnchor: [size / 2 - dx, size / 2 - dy],
      popupAnchor: [-dx, -dy],
    });
  }
  /** How many event markers each place has had so far: the next one there is drawn beside them. */
  var markedAt = {};
  function nextAt(lat, lng) {
    var key = lat + ',' + lng;
    var k = markedAt[key] || 0;
    markedAt[key] = k + 1;
    return k;
  }
  /** Bounds from the extremes: one object, not one per point (a history may hold a million). */
  function extendBounds(lats, lngs) {
    var s = Infinity, w = Infinity, n = -Infinity, e = -Infinity;
    for (var i = 0; i < lats.length; i++) {
      if (lats[i] < s) s = lats[i];
      if (lats[i] > n) n = lats[i];
      if (lngs[i] < w) w = lngs[i];
      if (lngs[i] > e) e = lngs[i];
    }
    if (lats.length > 0) bounds.extend(L.latLngBounds([s, w], [n, e]));
  }
  /** Values from the service are shown as sent, not rounded. */
  function exact(n) {
    return n === null || n === undefined || !isFinite(n) ? null : String(n);
  }
  function position(lat, lng) {
    return exact(lat) + ', ' + exact(lng);
  }

  // History: a simplified line per unit, dots with popups, sos and crash as their own markers.
  data.tracks.forEach(function (tr) {
    var n = tr.t.length;
    var t = new Array(n);
    var acc = 0;
    for (var i = 0; i < n; i++) {
      acc += tr.t[i];
      t[i] = acc;
    }
    extendBounds(tr.lat, tr.lng);
    function reportPopup(i) {
      var type = data.types[tr.k[i]];
      return popup(tr.name + ' (' + tr.did + ')', [
        ['Time', formatTime(t[i])],
        ['Speed', exact(tr.v[i])],
        ['Type', type],
        ['Address', tr.a[i] >= 0 ? data.addresses[tr.a[i]] : null],
        ['Position', position(tr.lat[i], tr.lng[i])],
      ]);
    }
    function openReport(i) {
      L.popup().setLatLng([tr.lat[i], tr.lng[i]]).setContent(reportPopup(i)).openOn(map);
    }
    /** The report nearest a click on the line: every report is searched, not just the drawn ones. */
    function nearest(latlng) {
      var kx = Math.cos((latlng.lat * Math.PI) / 180);
      var best = 0;
      var bestD = Infinity;
      for (var i = 0; i < n; i++) {
        var dx = (tr.lng[i] - latlng.lng) * kx;
        var dy = tr.lat[i] - latlng.lat;
        var d = dx * dx + dy * dy;
        if (d < bestD) {
          bestD = d;
          best = i;
        }
      }
      return best;
    }
    if (tr.line.length > 1) {
      var line = L.polyline(
        tr.line.map(function (i) {
          return [tr.lat[i], tr.lng[i]];
        }),
        { color: tr.color, weight: 4, opacity: 0.85, className: 'trk-track' },
      ).addTo(map);
      line.on('click', function (e) {
        openReport(nearest(e.latlng));
      });
      drawn.tracks++;
    }
    tr.dots.forEach(function (i) {
      L.circleMarker([tr.lat[i], tr.lng[i]], { radius: 3.5, color: tr.color, weight: 2, fillColor: '#fff', fillOpacity: 1, className: 'trk-point' })
        .on('click', function () {
          openReport(i);
        })
        .addTo(map);
      drawn.points++;
    });
    // Where the unit was last: a larger dot in its colour.
    if (n > 0) {
      L.circleMarker([tr.lat[n - 1], tr.lng[n - 1]], { radius: 7, color: '#fff', weight: 2, fillColor: tr.color, fillOpacity: 1, className: 'trk-last' })
        .on('click', function () {
          openReport(n - 1);
        })
        .addTo(map);
    }
    // The sos and crash reports chosen as markers (all of them, up to the page's cap); the popup is built when opened.
    tr.marks.forEach(function (j) {
      var kind = data.types[tr.k[j]];
      L.marker([tr.lat[j], tr.lng[j]], { icon: eventIcon(kind, undefined, nextAt(tr.lat[j], tr.lng[j])), title: kind + ' — ' + tr.name, zIndexOffset: 1000 })
        .bindPopup(function () {
          return reportPopup(j);
        })
        .addTo(map);
      drawn.events++;
    });
  });

  // Trips: a line each (straight and dashed when the trip came without its path); stops as markers.
  data.trips.forEach(function (trip) {
    var pts = [];
    for (var i = 0; i + 1 < trip.path.length; i += 2) {
      pts.push([trip.path[i], trip.path[i + 1]]);
      bounds.extend([trip.path[i], trip.path[i + 1]]);
    }
    if (pts.length === 0) return;
    var content = popup(trip.name + ' (' + trip.did + '): trip', [
      ['Start', formatTime(trip.start)],
      ['End', formatTime(trip.end)],
      ['Duration', formatDuration(trip.duration)],
      ['Distance', formatNumber(trip.distanceKm, 2) + ' km'],
    ]);
    L.polyline(pts, { color: trip.color, weight: 4, opacity: 0.85, dashArray: trip.routed ? null : '8 6', className: 'trk-trip' })
      .bindPopup(content)
      .addTo(map);
    L.circleMarker(pts[0], { radius: 4, color: trip.color, weight: 2, fillColor: '#fff', fillOpacity: 1, className: 'trk-trip-start' })
      .bindPopup(content)
      .addTo(map);
    L.circleMarker(pts[pts.length - 1], { radius: 4, color: '#fff', weight: 2, fillColor: trip.color, fillOpacity: 1, className: 'trk-trip-end' })
      .bindPopup(content)
      .addTo(map);
    drawn.trips++;
  });
  data.stops.forEach(function (stop) {
    bounds.extend([stop.lat, stop.lng]);
    L.marker([stop.lat, stop.lng], { icon: eventIcon('stop', stop.color, nextAt(stop.lat, stop.lng)), title: 'Stop — ' + stop.name })
      .bindPopup(
        popup(stop.name + ' (' + stop.did + '): stop', [
          ['Arrival', formatTime(stop.arrival)],
          ['Departure', stop.departure === null ? 'still there' : formatTime(stop.departure)],
          ['Duration', formatDuration(stop.duration)],
          ['Address', stop.address],
          ['Position', position(stop.lat, stop.lng)],
        ]),
      )
      .addTo(map);
    drawn.stops++;
  });

  // Units: the last position of each, coloured by state, labelled with its name (see layoutUnits).
  var unitMarkers = [];
  data.units.forEach(function (u) {
    bounds.extend([u.lat, u.lng]);
    var marker = L.circleMarker([u.lat, u.lng], { radius: 8, color: '#fff', weight: 2, fillColor: u.color, fillOpacity: 1, className: 'trk-unit trk-unit-' + u.state })
      .bindPopup(
        popup(u.name + ' (' + u.id + ')', [
          ['Category', u.category],
          ['State', u.state === 'sensor' ? 'reporting (a sensor: it stays where it is)' : u.state],
          ['Last report', formatTime(u.time)],
          ['Battery', u.battery === null ? null : u.battery + ' %'],
          ['Address', u.address],
          ['Position', position(u.lat, u.lng)],
        ]),
      )
      .addTo(map);
    // A string would be taken as HTML: the name goes in as text.
    var label = document.createElement('span');
    label.textContent = u.name;
    marker.bindTooltip(label, { permanent: true, direction: 'right', offset: [8, 0], className: 'trk-label' });
    unitMarkers.push({ u: u, marker: marker, hidden: false });
    drawn.units++;
  });

  /**
   * Units parked together (a depot) would be drawn on top of each other: markers closer than
   * FAN_PX are spread on a small ring around their centre (the popup keeps the exact position),
   * and a label that would overlap another, or leave the map, is shown on hover only. Done again
   * at every zoom, since what overlaps depends on it.
   */
  var FAN_PX = 16;
  function layoutUnits() {
    var points = unitMarkers.map(function (m) {
      return map.latLngToLayerPoint([m.u.lat, m.u.lng]);
    });
    // Groups by single linkage (a chain of close units is one group), then merged again while
    // the rings of two groups would still put markers on top of each other.
    var parent = points.map(function (_, i) {
      return i;
    });
    function root(i) {
      while (parent[i] !== i) i = parent[i] = parent[parent[i]];
      return i;
    }
    function join(a, b) {
      a = root(a);
      b = root(b);
      if (a === b) return false;
      parent[b] = a;
      return true;
    }
    var i, j;
    for (i = 0; i < points.length; i++) for (j = i + 1; j < points.length; j++) if (points[i].distanceTo(points[j]) < FAN_PX) join(i, j);
    var spots = points;
    for (var round = 0; round < 20; round++) {
      var groups = {};
      points.forEach(function (p, k) {
        var g = (groups[root(k)] = groups[root(k)] || []);
        g.push(k);
      });
      spots = points.slice();
      Object.keys(groups).forEach(function (key) {
        var members = groups[key];
        var n = members.length;
        if (n === 1) return;
        var cx = 0;
        var cy = 0;
        members.forEach(function (k) {
          cx += points[k].x / n;
          cy += points[k].y / n;
        });
        var r = Math.max(FAN_PX, (n * (FAN_PX + 6)) / (2 * Math.PI));
        members.forEach(function (k, idx) {
          var a = (2 * Math.PI * idx) / n - Math.PI / 2;
          spots[k] = L.point(cx + r * Math.cos(a), cy + r * Math.sin(a));
        });
      });
      var merged = false;
      for (i = 0; i < spots.length; i++) {
        for (j = i + 1; j < spots.length; j++) if (root(i) !== root(j) && spots[i].distanceTo(spots[j]) < FAN_PX && join(i, j)) merged = true;
      }
      if (!merged) break;
    }
    unitMarkers.forEach(function (m, k) {
      m.marker.setLatLng(map.layerPointToLatLng(spots[k]));
    });
    var box = document.getElementById('map').getBoundingClientRect();
    var placed = [];
    // The legend, notes and zoom buttons are drawn over the map: a label under one is not readable.
    var controls = [].slice.call(document.querySelectorAll('#map .leaflet-control')).map(function (c) {
      return c.getBoundingClientRect();
    });
    unitMarkers.forEach(function (m) {
      m.marker.closeTooltip();
      m.marker.openTooltip();
    });
    // Labels in the order of the legend's interest: moving, stopped, sensors, stale; then by name.
    var order = { moving: 0, stopped: 1, sensor: 2, stale: 3 };
    unitMarkers
      .slice()
      .sort(function (a, b) {
        return order[a.u.state] - order[b.u.state] || (a.u.name < b.u.name ? -1 : a.u.name > b.u.name ? 1 : 0);
      })
      .forEach(function (m) {
        var el = m.marker.getTooltip().getElement();
        el.classList.remove('trk-label-hover');
        var r = el.getBoundingClientRect();
        var clear =
          r.left >= box.left && r.right <= box.right && r.top >= box.top && r.bottom <= box.bottom &&
          placed.concat(controls).every(function (q) {
            return r.right <= q.left || r.left >= q.right || r.bottom <= q.top || r.top >= q.bottom;
          });
        m.hidden = !clear;
        if (clear) placed.push(r);
        else el.classList.add('trk-label-hover');
      });
    drawn.labels = placed.length;
  }
  unitMarkers.forEach(function (m) {
    m.marker.on('mouseover', function () {
      m.marker.getTooltip().getElement().classList.remove('trk-label-hover');
    });
    m.marker.on('mouseout', function () {
      if (m.hidden) m.marker.getTooltip().getElement().classList.add('trk-label-hover');
    });
  });

  // What the page leaves out, said where the eye is.
  data.notes.forEach(function (text) {
    var note = L.control({ position: 'topright' });
    note.onAdd = function () {
      var div = L.DomUtil.create('div', 'trk-notice trk-note');
      div.textContent = text;
      return div;
    };
    note.addTo(map);
  });

  // The legend.
  var legendHeight = 0;
  if (data.legend.length > 0) {
    var legend = L.control({ position: 'bottomright' });
    legend.onAdd = function () {
      var div = L.DomUtil.create('div', 'trk-legend');
      data.legend.forEach(function (entry) {
        var row = document.createElement('div');
        var swatch = document.createElement('span');
        if (entry.shape === 'line' || entry.shape === 'dot') {
          swatch.className = 'trk-swatch ' + entry.shape;
          swatch.style.setProperty('--c', entry.color);
        } else {
          swatch.className = 'trk-event trk-' + entry.shape;
          if (safeColor(entry.color)) swatch.style.background = entry.color;
          var inner = document.createElement('span');
          inner.textContent = entry.shape === 'sos' ? 'SOS' : entry.shape === 'crash' ? '!' : 'P';
          swatch.appendChild(inner);
        }
        var label = document.createElement('span');
        label.textContent = entry.label;
        row.appendChild(swatch);
        row.appendChild(label);
        div.appendChild(row);
      });
      L.DomEvent.disableClickPropagation(div);
      L.DomEvent.disableScrollPropagation(div);
      return div;
    };
    legend.addTo(map);
    legendHeight = legend.getContainer().offsetHeight;
  }

  // Fit to the data; with nothing to show, the whole world and a note.
  if (!bounds.isValid()) {
    map.setView([20, 0], 2);
    var empty = L.control({ position: 'topright' });
    empty.onAdd = function () {
      var div = L.DomUtil.create('div', 'trk-notice');
      div.textContent = 'Nothing to show.';
      return div;
    };
    empty.addTo(map);
  } else if (bounds.getNorthEast().equals(bounds.getSouthWest())) {
    map.setView(bounds.getCenter(), 15);
  } else {
    // The legend sits bottom right: keep the data clear of it, unless that would shrink the map too much.
    // Markers keep a margin from every edge, and on the right room for a label (names are drawn to the right).
    var size = map.getSize();
    var bottom = Math.max(60, Math.min(legendHeight + 24, size.y / 3));
    var labelRoom = 0;
    if (unitMarkers.length > 0) {
      // The widest name, measured as a label is drawn (the labels open only once the map has a view).
      var probe = L.DomUtil.create('div', 'leaflet-tooltip trk-label', document.getElementById('map'));
      probe.style.visibility = 'hidden';
      unitMarkers.forEach(function (m) {
        probe.textContent = m.u.name;
        labelRoom = Math.max(labelRoom, Math.min(size.x / 4, 24 + probe.offsetWidth));
      });
      L.DomUtil.remove(probe);
    }
    map.fitBounds(bounds, { paddingTopLeft: [50, 50], paddingBottomRight: [Math.max(50, labelRoom), bottom], maxZoom: 17 });
  }
  if (unitMarkers.length > 0) {
    layoutUnits();
    map.on('zoomend', layoutUnits);
  }
  window.trackctlMap = drawn;
  document.body.setAttribute('data-drawn', 'true');
})();
