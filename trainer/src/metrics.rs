//! Training metrics: one JSON object per step in `metrics.jsonl`, and an SVG of the main
//! series (small multiples, one panel per metric against the step) written beside it;
//! and [`render_bands`], one panel of several series with a band each (curves over seeds).

use std::io::Write;
use std::path::{Path, PathBuf};

/// The metrics file of a run.
#[derive(Debug)]
pub struct Metrics {
    path: PathBuf,
}

/// The series plotted, in panel order.
pub const PLOTTED: &[&str] = &[
    "final_reward",
    "pass_rate",
    "tier_compiled",
    "tier_samples",
    "loss",
    "kl",
    "clip_high",
    "tis_truncated",
    "ratio_max",
    "tokens_per_s",
    "optimize_s",
    "judge_s",
];

impl Metrics {
    /// Opens `path` for appending; lines of steps after `step` (a run stopped after its
    /// last checkpoint) are dropped, so a resumed run writes each step once.
    pub fn open(path: &Path, step: u64) -> std::io::Result<Metrics> {
        if path.is_file() {
            let text = std::fs::read_to_string(path)?;
            let kept: String = text
                .lines()
                .filter(|l| {
                    serde_json::from_str::<serde_json::Value>(l)
                        .ok()
                        .and_then(|v| v["step"].as_u64())
                        .is_some_and(|s| s <= step)
                })
                .map(|l| format!("{l}\n"))
                .collect();
            std::fs::write(path, kept)?;
        }
        Ok(Metrics {
            path: path.to_path_buf(),
        })
    }

    /// Appends one step's line.
    pub fn write(&mut self, value: &serde_json::Value) -> std::io::Result<()> {
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.path)?;
        writeln!(f, "{value}")
    }
}

/// Reads every line of a metrics file.
pub fn read(path: &Path) -> std::io::Result<Vec<serde_json::Value>> {
    let text = std::fs::read_to_string(path)?;
    text.lines()
        .map(|l| serde_json::from_str(l).map_err(std::io::Error::other))
        .collect()
}

/// Writes the SVG of `jsonl` to `svg`.
pub fn plot(jsonl: &Path, svg: &Path) -> std::io::Result<()> {
    let rows = read(jsonl)?;
    std::fs::write(svg, render(&rows))
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;")
}

/// The drawing area of one panel and the data bounds it maps onto it.
struct Frame {
    left: f64,
    top: f64,
    width: f64,
    height: f64,
    xmin: f64,
    xmax: f64,
    ymin: f64,
    ymax: f64,
}

impl Frame {
    /// The bounds of `points` (`None` when there are none); a flat range is widened by 1.
    fn fit(
        (left, top, width, height): (f64, f64, f64, f64),
        points: impl IntoIterator<Item = (f64, f64)>,
    ) -> Option<Frame> {
        let mut it = points.into_iter();
        let (x, y) = it.next()?;
        let mut f = Frame {
            left,
            top,
            width,
            height,
            xmin: x,
            xmax: x,
            ymin: y,
            ymax: y,
        };
        for (x, y) in it {
            f.xmin = f.xmin.min(x);
            f.xmax = f.xmax.max(x);
            f.ymin = f.ymin.min(y);
            f.ymax = f.ymax.max(y);
        }
        if f.xmax == f.xmin {
            f.xmax = f.xmin + 1.0;
        }
        if f.ymax == f.ymin {
            f.ymax = f.ymin + 1.0;
        }
        Some(f)
    }

    fn px(&self, x: f64) -> f64 {
        self.left + (x - self.xmin) / (self.xmax - self.xmin) * self.width
    }

    fn py(&self, y: f64) -> f64 {
        self.top + (1.0 - (y - self.ymin) / (self.ymax - self.ymin)) * self.height
    }

    /// `x,y x,y ...` in drawing coordinates.
    fn polyline(&self, points: impl IntoIterator<Item = (f64, f64)>) -> String {
        let parts: Vec<String> = points
            .into_iter()
            .map(|(x, y)| format!("{:.1},{:.1}", self.px(x), self.py(y)))
            .collect();
        parts.join(" ")
    }

    /// The y range at the left, the x range below, `x_label` before the smallest x.
    fn labels(&self, x_label: &str) -> String {
        let (right, bottom) = (self.left + self.width, self.top + self.height);
        format!(
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text><text x=\"{}\" y=\"{bottom}\" text-anchor=\"end\">{}</text><text x=\"{}\" y=\"{}\">{} {}</text><text x=\"{right}\" y=\"{}\" text-anchor=\"end\">{}</text>\n",
            self.left - 4.0,
            self.top + 4.0,
            fmt(self.ymax),
            self.left - 4.0,
            fmt(self.ymin),
            self.left,
            bottom + 13.0,
            esc(x_label),
            fmt(self.xmin),
            bottom + 13.0,
            fmt(self.xmax)
        )
    }
}

/// The SVG text of some metric lines.
pub fn render(rows: &[serde_json::Value]) -> String {
    let (w, h, cols) = (260.0, 150.0, 3usize);
    let panels = PLOTTED.len();
    let height = h * panels.div_ceil(cols) as f64;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{height}\" font-family=\"sans-serif\" font-size=\"11\">\n",
        w * cols as f64
    );
    for (k, key) in PLOTTED.iter().enumerate() {
        let (x0, y0) = ((k % cols) as f64 * w, (k / cols) as f64 * h);
        let points: Vec<(f64, f64)> = rows
            .iter()
            .filter_map(|r| Some((r["step"].as_f64()?, r[*key].as_f64()?)))
            .collect();
        out.push_str(&format!(
            "<g transform=\"translate({x0},{y0})\"><rect x=\"40\" y=\"20\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#ccc\"/><text x=\"40\" y=\"14\">{}</text>\n",
            w - 55.0,
            h - 45.0,
            esc(key)
        ));
        if let Some(frame) = Frame::fit((40.0, 20.0, w - 55.0, h - 45.0), points.iter().copied()) {
            out.push_str(&format!(
                "<polyline fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"1.5\" points=\"{}\"/>\n",
                frame.polyline(points.iter().copied())
            ));
            for (x, y) in &points {
                out.push_str(&format!(
                    "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"2\" fill=\"#1f77b4\"/>",
                    frame.px(*x),
                    frame.py(*y)
                ));
            }
            out.push_str(&frame.labels("step"));
        }
        out.push_str("</g>\n");
    }
    out.push_str("</svg>\n");
    out
}

/// One point of a [`Band`]: the mean and the band's ends at `x`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BandPoint {
    /// Where on the x axis.
    pub x: f64,
    /// The line's value (e.g. the mean over seeds).
    pub mean: f64,
    /// The band's lower end (e.g. the smallest over seeds).
    pub lo: f64,
    /// Its upper end.
    pub hi: f64,
}

/// One series of [`render_bands`]: a line with a shaded band around it.
#[derive(Debug, Clone, PartialEq)]
pub struct Band {
    /// The legend's name.
    pub label: String,
    /// The points, in x order.
    pub points: Vec<BandPoint>,
}

/// The colours of the series of one plot, in order (then again).
const PALETTE: &[&str] = &["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e"];

/// One panel with several series, each a line and a translucent band (for curves over
/// seeds: the mean and the min–max or ±sd), a legend, the title and the axis labels.
pub fn render_bands(title: &str, x_label: &str, y_label: &str, bands: &[Band]) -> String {
    let (w, h) = (560.0, 340.0);
    let area = (60.0, 30.0, w - 80.0, h - 75.0);
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" font-family=\"sans-serif\" font-size=\"11\">\n<text x=\"{}\" y=\"18\" font-size=\"13\">{}</text><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#ccc\"/>\n<text transform=\"translate(14,{}) rotate(-90)\" text-anchor=\"middle\">{}</text>\n",
        area.0,
        esc(title),
        area.0,
        area.1,
        area.2,
        area.3,
        area.1 + area.3 / 2.0,
        esc(y_label)
    );
    let all = bands
        .iter()
        .flat_map(|b| b.points.iter())
        .flat_map(|p| [(p.x, p.lo), (p.x, p.hi), (p.x, p.mean)]);
    if let Some(frame) = Frame::fit(area, all) {
        for (k, band) in bands.iter().enumerate() {
            let colour = PALETTE[k % PALETTE.len()];
            let upper = band.points.iter().map(|p| (p.x, p.hi));
            let lower = band.points.iter().rev().map(|p| (p.x, p.lo));
            out.push_str(&format!(
                "<polygon fill=\"{colour}\" fill-opacity=\"0.15\" stroke=\"none\" points=\"{}\"/>\n<polyline fill=\"none\" stroke=\"{colour}\" stroke-width=\"1.8\" points=\"{}\"/>\n",
                frame.polyline(upper.chain(lower)),
                frame.polyline(band.points.iter().map(|p| (p.x, p.mean)))
            ));
            let y = area.1 + 14.0 + 14.0 * k as f64;
            out.push_str(&format!(
                "<rect x=\"{}\" y=\"{}\" width=\"12\" height=\"3\" fill=\"{colour}\"/><text x=\"{}\" y=\"{y}\">{}</text>\n",
                area.0 + 8.0,
                y - 4.0,
                area.0 + 24.0,
                esc(&band.label)
            ));
        }
        out.push_str(&frame.labels(x_label));
    }
    out.push_str("</svg>\n");
    out
}

fn fmt(v: f64) -> String {
    if v.abs() >= 100.0 || v == v.trunc() {
        format!("{v:.0}")
    } else {
        format!("{v:.3}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_past_the_checkpoint_are_dropped_and_the_plot_has_a_panel_per_series() {
        let dir = tempfile::tempdir().expect("tmp");
        let path = dir.path().join("metrics.jsonl");
        let mut m = Metrics::open(&path, 0).expect("open");
        for s in 1..=3 {
            m.write(&serde_json::json!({"step": s, "loss": 0.5 / s as f64, "pass_rate": 0.25}))
                .expect("write");
        }
        Metrics::open(&path, 2).expect("reopen");
        let rows = read(&path).expect("read");
        assert_eq!(rows.len(), 2);
        let svg = render(&rows);
        assert_eq!(
            svg.matches("<polyline").count(),
            2,
            "loss and pass_rate have points"
        );
        assert_eq!(svg.matches("<g ").count(), PLOTTED.len());
        assert!(
            svg.contains(">step 1</text>"),
            "the x range starts at step 1"
        );
    }

    #[test]
    fn a_band_plot_has_a_line_a_band_and_a_legend_entry_per_series() {
        let band = |label: &str, shift: f64| Band {
            label: label.to_owned(),
            points: (0..4)
                .map(|i| BandPoint {
                    x: i as f64,
                    mean: shift + i as f64,
                    lo: shift + i as f64 - 0.5,
                    hi: shift + i as f64 + 0.5,
                })
                .collect(),
        };
        let svg = render_bands(
            "score <by> step",
            "step",
            "score",
            &[band("a", 0.0), band("b", 1.0)],
        );
        assert_eq!(svg.matches("<polyline").count(), 2);
        assert_eq!(svg.matches("<polygon").count(), 2);
        assert!(svg.contains(">a</text>") && svg.contains(">b</text>"));
        assert!(svg.contains("score &lt;by> step"), "the title is escaped");
        // The y axis spans every band: from 0 - 0.5 to 1 + 3 + 0.5.
        assert!(
            svg.contains(">-0.500</text>") && svg.contains(">4.500</text>"),
            "{svg}"
        );
        // A band's polygon runs along the upper ends, then back along the lower ones:
        // 8 points.
        let polygon = svg.split("<polygon").nth(1).expect("a polygon");
        let points = polygon.split("points=\"").nth(1).expect("points");
        let points = &points[..points.find('"').expect("closed")];
        assert_eq!(points.split(' ').count(), 8);
        assert_eq!(
            render_bands("t", "x", "y", &[])
                .matches("<polyline")
                .count(),
            0
        );
    }
}
