//! Training metrics: one JSON object per step in `metrics.jsonl`, and an SVG of the main
//! series (small multiples, one panel per metric against the step) written beside it.

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
        if let (Some(first), false) = (points.first(), points.is_empty()) {
            let (mut xmin, mut xmax, mut ymin, mut ymax) = (first.0, first.0, first.1, first.1);
            for (x, y) in &points {
                xmin = xmin.min(*x);
                xmax = xmax.max(*x);
                ymin = ymin.min(*y);
                ymax = ymax.max(*y);
            }
            if xmax == xmin {
                xmax = xmin + 1.0;
            }
            if ymax == ymin {
                ymax = ymin + 1.0;
            }
            let px = |x: f64| 40.0 + (x - xmin) / (xmax - xmin) * (w - 55.0);
            let py = |y: f64| 20.0 + (1.0 - (y - ymin) / (ymax - ymin)) * (h - 45.0);
            let path: Vec<String> = points
                .iter()
                .map(|(x, y)| format!("{:.1},{:.1}", px(*x), py(*y)))
                .collect();
            out.push_str(&format!(
                "<polyline fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"1.5\" points=\"{}\"/>\n",
                path.join(" ")
            ));
            for (x, y) in &points {
                out.push_str(&format!(
                    "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"2\" fill=\"#1f77b4\"/>",
                    px(*x),
                    py(*y)
                ));
            }
            out.push_str(&format!(
                "<text x=\"36\" y=\"24\" text-anchor=\"end\">{}</text><text x=\"36\" y=\"{}\" text-anchor=\"end\">{}</text><text x=\"40\" y=\"{}\">step {}</text><text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\n",
                fmt(ymax),
                h - 25.0,
                fmt(ymin),
                h - 12.0,
                fmt(xmin),
                w - 15.0,
                h - 12.0,
                fmt(xmax)
            ));
        }
        out.push_str("</g>\n");
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
    }
}
