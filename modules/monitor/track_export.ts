/** Client-side track files: GPX 1.1 and KML 2.2 from playback points (WGS-84). */

export interface TrackPoint {
  /** Epoch ms. */
  time: number;
  lat: number;
  lng: number;
  /** km/h */
  speed: number;
  course: number;
  altitude: number;
}

const escapeXml = (s: string) =>
  s.replace(
    /[<>&'"]/g,
    (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;", '"': "&quot;" })[c]!,
  );

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.000Z$/, "Z");

export function toGpx(name: string, points: TrackPoint[]): string {
  const out: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<gpx version="1.1" creator="Tracking Platform" xmlns="http://www.topografix.com/GPX/1/1">',
    `<trk><name>${escapeXml(name)}</name><trkseg>`,
  ];
  for (const p of points) {
    // GPX speed is m/s (in extensions-free 1.1 it is not a trkpt child; course neither).
    out.push(
      `<trkpt lat="${p.lat.toFixed(6)}" lon="${p.lng.toFixed(6)}"><ele>${
        p.altitude.toFixed(1)
      }</ele><time>${iso(p.time)}</time></trkpt>`,
    );
  }
  out.push("</trkseg></trk></gpx>", "");
  return out.join("\n");
}

export function toKml(name: string, points: TrackPoint[]): string {
  const coords = points.map((p) =>
    `${p.lng.toFixed(6)},${p.lat.toFixed(6)},${p.altitude.toFixed(1)}`
  );
  const whens = points.map((p) => `<when>${iso(p.time)}</when>`);
  const gx = points.map((p) =>
    `<gx:coord>${p.lng.toFixed(6)} ${p.lat.toFixed(6)} ${p.altitude.toFixed(1)}</gx:coord>`
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2">',
    "<Document>",
    `<name>${escapeXml(name)}</name>`,
    '<Style id="track"><LineStyle><color>ffeb6325</color><width>4</width></LineStyle></Style>',
    `<Placemark><name>${escapeXml(name)}</name><styleUrl>#track</styleUrl>`,
    `<LineString><tessellate>1</tessellate><coordinates>${
      coords.join(" ")
    }</coordinates></LineString>`,
    "</Placemark>",
    `<Placemark><name>${escapeXml(name)}</name><gx:Track>`,
    ...whens,
    ...gx,
    "</gx:Track></Placemark>",
    "</Document></kml>",
    "",
  ].join("\n");
}
